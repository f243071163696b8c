#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install components: each `cmake --install BUILD --component X` installs its
# own files and none of another component's; then the uninstall script
# (cmake/BloomUninstall.cmake, the `uninstall` target's) removes a full
# install again, leaving the prefix without a single file.
#   install_components.sh CMAKE BUILD_DIR WORK LIBDIR PYTHON_DIR REDIS(ON|OFF) MAN(ON|OFF)
set -euo pipefail
CMAKE=$1 BUILD=$2 WORK=$3 LIBDIR=$4 PYDIR=$5 REDIS=$6 MAN=$7
SRC=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK"

# component: files it must install (relative to the prefix).
declare -A expect=(
  [runtime]="$LIBDIR/libbloomfilter.so.1"
  [development]="include/bloom/bloom.h include/bloom/bloom.hpp $LIBDIR/libbloomfilter.so $LIBDIR/libbloomfilter.a $LIBDIR/cmake/bloom/bloomConfig.cmake $LIBDIR/cmake/bloom/bloomTargets.cmake $LIBDIR/pkgconfig/bloom.pc $LIBDIR/pkgconfig/bloom-static.pc"
  [cli]="bin/bloom share/bash-completion/completions/bloom share/zsh/site-functions/_bloom"
  [python]="$PYDIR/bloomkit/__init__.py $PYDIR/bloomkit/_paths.py"
  [redis]="$LIBDIR/bloom/redis/bloom_redis.so"
)
[ "$MAN" = ON ] && expect[cli]+=" share/man/man1/bloom.1 share/man/man1/bloom-build.1"
components=(runtime development cli python)
[ "$REDIS" = ON ] && components+=(redis)

declare -A owner=()
for c in "${components[@]}"; do
  prefix=$WORK/$c
  "$CMAKE" --install "$BUILD" --prefix "$prefix" --component "$c" >/dev/null
  for f in ${expect[$c]}; do
    [ -e "$prefix/$f" ] || [ -L "$prefix/$f" ] || fail "component $c did not install $f"
  done
  # Nothing of another component.
  for other in "${components[@]}"; do
    [ "$other" = "$c" ] && continue
    for f in ${expect[$other]}; do
      { [ -e "$prefix/$f" ] || [ -L "$prefix/$f" ]; } && fail "component $c installed $f, which is $other's"
    done
  done
  while IFS= read -r f; do
    [ -z "${owner[$f]:-}" ] || fail "$f is installed by both ${owner[$f]} and $c"
    owner[$f]=$c
  done < <(cd "$prefix" && find . \( -type f -o -type l \) | sort)
  echo "component $c: $(cd "$prefix" && find . \( -type f -o -type l \) | wc -l) files"
done

# The whole install is the union of the components: nothing is left out of all.
all=$WORK/all
"$CMAKE" --install "$BUILD" --prefix "$all" >/dev/null
# Copied at once: other tests' installs write the build's manifest too.
mkdir -p "$WORK/manifest" && cp "$BUILD/install_manifest.txt" "$WORK/manifest/"
grep -q "^$all/" "$WORK/manifest/install_manifest.txt" || fail "the manifest is not this install's"
while IFS= read -r f; do
  [ -n "${owner[$f]:-}" ] || fail "$f is installed by no component (only by a plain install)"
done < <(cd "$all" && find . \( -type f -o -type l \) | sort)
echo "plain install: $(cd "$all" && find . \( -type f -o -type l \) | wc -l) files, each in a component"

# A Python import leaves compiled files behind; uninstall removes them too.
PYTHONPATH=$all/$PYDIR PYTHONDONTWRITEBYTECODE= python3 -c 'import bloomkit' || fail "the installed package does not import"
"$CMAKE" -DBUILD_DIR="$WORK/manifest" -P "$SRC/cmake/BloomUninstall.cmake"
left=$(cd "$all" && find . \( -type f -o -type l \))
[ -z "$left" ] || fail "uninstall left: $left"
for d in include/bloom "$LIBDIR/cmake/bloom" "$PYDIR/bloomkit"; do
  [ ! -e "$all/$d" ] || fail "uninstall left the directory $d"
done
echo "uninstall: no file left in $all"
echo "install components and uninstall: all checks passed"
