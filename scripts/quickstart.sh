#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's first command: install the few Debian packages the library,
# the bloom tool and the Python package need (scripts/packages.d/quickstart.txt),
# build them (Release; no tests, examples, benchmarks, fuzzers or Redis module) in
# build-release/, install them, check that a fresh login shell finds
# `bloom`, `man bloom` and `import bloomkit`, then build a filter from
# samples/keys.txt with the installed tool and query it.
#
# Where it installs: as root /usr/local (then ldconfig); otherwise ~/.local.
# BLOOM_PREFIX=<dir> picks another prefix (the Python .pth file then goes to
# each interpreter's user site directory, as for ~/.local).
# The tests (scripts/test.sh) use their own build directory, build/.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=build-release

if [ -n "${BLOOM_PREFIX:-}" ]; then
  prefix=$BLOOM_PREFIX python_site=user
elif [ "$(id -u)" -eq 0 ]; then
  prefix=/usr/local python_site=system
else
  prefix=$HOME/.local python_site=user
fi
echo "quickstart: installing into $prefix"

scripts/setup.sh quickstart

# Every interpreter a user may type as python3: the one first on PATH (often
# pyenv's) and the system's. Each gets a bloomkit.pth naming the installed
# package's directory, which neither reads by itself.
# (A pyenv shim is asked for the interpreter it runs.)
pythons=()
for p in "$(command -v python3 || true)" /usr/bin/python3; do
  [ -n "$p" ] && [ -x "$p" ] || continue
  exe=$("$p" -c 'import sys; print(sys.executable)') || continue
  case " ${pythons[*]} " in *" $exe "*) ;; *) pythons+=("$exe") ;; esac
done

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DBLOOM_BUILD_TESTS=OFF -DBLOOM_BUILD_EXAMPLES=OFF -DBLOOM_BUILD_BENCH=OFF -DBLOOM_BUILD_REDIS=OFF \
  -DBLOOM_BUILD_FUZZERS=OFF -DBLOOM_PYTHON_SOURCE_PATHS=OFF \
  -DBLOOM_PYTHON_PTH="$python_site" "-DBLOOM_PYTHON_PTH_INTERPRETERS=$(IFS=';'; echo "${pythons[*]}")"
cmake --build "$build_dir" -j"$(nproc)"
for component in runtime development cli python; do
  cmake --install "$build_dir" --component "$component"
done
if [ "$(id -u)" -eq 0 ] && [ "$prefix" = /usr/local ]; then
  ldconfig   # so programs linked with plain -lbloomfilter find the library
fi

# A fresh login shell, as the user's next terminal: does it find everything?
# /usr/local/bin is on every PATH; Debian's ~/.profile puts ~/.local/bin on
# it when that directory exists. A login PATH without the prefix's bin/ is
# said (with what to do), then added for the remaining checks.
check='
set -e
if ! command -v bloom >/dev/null; then
  echo "quickstart: note: a login shell here does not have $BLOOM_BIN on PATH; add it (e.g. in ~/.profile)" >&2
  PATH=$BLOOM_BIN:$PATH
fi
found=$(command -v bloom)
echo "$found"
[ "$found" = "$BLOOM_BIN/bloom" ] || echo "quickstart: note: $found comes before $BLOOM_BIN/bloom on PATH" >&2
bloom --version
man -w bloom
for py in '"${pythons[*]}"'; do
  "$py" -c "import bloomkit, sys; print(sys.executable, \"imports\", bloomkit.__file__, \"(library\", bloomkit.version(), end=\")\n\")"
done'
if ! env -i HOME="$HOME" USER="${USER:-$(id -un)}" TERM="${TERM:-dumb}" BLOOM_BIN="$prefix/bin" bash -l -c "$check"; then
  echo "quickstart: a fresh login shell does not find everything (above)" >&2
  exit 1
fi

# The main job, with the installed tool.
BLOOM="$prefix/bin/bloom" OUT_DIR="$build_dir" scripts/cli-demo.sh
echo "quickstart: done. Installed into $prefix; remove with: cmake --build $build_dir --target uninstall"
