#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian packages (debian/): build them with dpkg-buildpackage in a copy
# of the tree (it writes into the tree and into its parent), check them with
# lintian (zero errors), install them with apt, then run the consumer tests
# against what the packages installed and nothing else: a C program through
# pkg-config (shared and static), CMake find_package projects (C, and C++
# through bloom.hpp), the Python package with Debian's /usr/bin/python3, the
# bloom command, and the Redis module in a redis-server on a loopback port.
# The packages are purged at the end, also on failure, so later steps see the
# machine as it was.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
packages=(libbloomfilter1 libbloomfilter-dev bloomfilter-tools python3-bloomkit redis-bloomfilter)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=lib/$multiarch
work=$(mktemp -d)
redis_pid=""
installed=0
cleanup() {
  [ -z "$redis_pid" ] || kill "$redis_pid" 2>/dev/null || true
  if [ "$installed" = 1 ]; then
    echo "--- purging ${packages[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 purge -y -qq "${packages[@]}" >/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Installing the packages must neither replace a bloom the machine already
# has from elsewhere nor remove the Go tool that also owns /usr/bin/bloom.
for p in "${packages[@]}" golang-github-dcso-bloom-cli; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    fail "$p is already installed; this step installs and purges its own build"
  fi
done

if [ -n "${BLOOM_DEBS:-}" ]; then  # packages built before (a developer's re-run of the tests)
  echo "--- testing the packages in $BLOOM_DEBS (BLOOM_DEBS)"
  cp "$BLOOM_DEBS"/*.deb "$BLOOM_DEBS"/*.changes "$BLOOM_DEBS"/*.buildinfo "$work"/
else
  echo "--- dpkg-buildpackage -us -uc -b (in a copy of the tree)"
  mkdir "$work/src"
  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/src"
  (cd "$work/src" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b \
    >"$work/build.log" 2>&1) || { tail -n 60 "$work/build.log"; fail "dpkg-buildpackage"; }
  # New bloom_* symbols missing from debian/libbloomfilter1.symbols are only
  # a warning there (a vanished one fails the build): show it here.
  grep -E '^dpkg-(gensymbols|shlibdeps): warning' "$work/build.log" || true
fi
built=$(date +%s)
for deb in "$work"/*.deb; do basename "$deb"; done

echo "--- lintian (errors fail the step; warnings are printed)"
changes=$(ls "$work"/*.changes)
lintian --fail-on error --info "$changes" | tee "$work/lintian.log" || fail "lintian reports errors"
linted=$(date +%s)

echo "--- installing ${packages[*]}"
debs=()
for p in "${packages[@]}"; do debs+=("$(ls "$work/${p}_"*.deb)"); done
installed=1
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
  "${debs[@]}" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get install"; }
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Package} ${Version} ${Status}\n' "$p"
done

# Every test below resolves the library, headers, .pc and CMake files from
# /usr: no PKG_CONFIG_PATH, CMAKE_PREFIX_PATH, PYTHONPATH or loader path
# inherited from the shell may point elsewhere.
unset PKG_CONFIG_PATH CMAKE_PREFIX_PATH PYTHONPATH LD_LIBRARY_PATH BLOOM_LIBRARY
owned_by() {  # owned_by PACKAGE FILE: FILE (symlinks followed) belongs to PACKAGE
  local real
  real=$(readlink -f "$2")
  # dpkg -S names a Multi-Arch: same package with its architecture.
  dpkg -S "$real" 2>/dev/null | grep -Eq "^$1(:[a-z0-9-]+)?: " || fail "$2 ($real) does not belong to $1"
}

echo "--- the shared library exports only bloom_* (libbloomfilter1)"
cmake -DLIBRARY="/usr/$libdir/libbloomfilter.so.1" -P tests/check_exports.cmake
owned_by libbloomfilter1 "/usr/$libdir/libbloomfilter.so.1"

# run_consumer NAME COMMAND...: the build's output goes to $work/NAME.log
# (printed whole on failure); the programs' own lines are shown.
run_consumer() {
  local name=$1
  shift
  "$@" >"$work/$name.log" 2>&1 || { cat "$work/$name.log"; fail "$name"; }
  grep -Ev '^(-- |\[ *[0-9]+%\]|CMake Warning|  |$)' "$work/$name.log" | sed "s/^/  $name: /"
}
passed() { grep -c "$1" "$work/$2.log" || true; }

echo "--- C through pkg-config, shared and static (libbloomfilter-dev)"
run_consumer pc_shared sh tests/consumer/pkgconfig_shared.sh cc /usr "$libdir" tests/consumer/consumer_check.c "$work/pc_shared"
[ "$(passed 'all checks passed' pc_shared)" = 1 ] || fail "pkg-config shared consumer"
[ "$(pkg-config --variable=pcfiledir bloom)" = "/usr/$libdir/pkgconfig" ] ||
  fail "pkg-config finds bloom.pc in $(pkg-config --variable=pcfiledir bloom), not the package's"
owned_by libbloomfilter1 "$(ldd "$work/pc_shared/consumer" | sed -n 's/.*libbloomfilter.so.1 => \([^ ]*\).*/\1/p')"
run_consumer pc_static sh tests/consumer/pkgconfig_static.sh cc /usr "$libdir" tests/consumer/consumer_check.c "$work/pc_static"
[ "$(passed 'all checks passed' pc_static)" = 2 ] || fail "pkg-config static consumers"

echo "--- CMake find_package: C (shared, static) and C++ through bloom.hpp"
run_consumer cmake_project sh tests/consumer/cmake_consumer.sh cmake /usr tests/consumer/cmake_project \
  "$work/cmake_project" cc c++ consumer_shared consumer_static consumer_cpp
grep -q "bloom_DIR:PATH=/usr/$libdir/cmake/bloom\$" "$work/cmake_project/CMakeCache.txt" ||
  fail "find_package found bloom outside /usr/$libdir/cmake/bloom"
[ "$(passed 'all checks passed' cmake_project)" = 2 ] || fail "CMake C consumers"
[ "$(passed '^wrapper: classic filter' cmake_project)" = 1 ] || fail "CMake C++ consumer"
owned_by libbloomfilter1 "$(ldd "$work/cmake_project/consumer_cpp" | sed -n 's/.*libbloomfilter.so.1 => \([^ ]*\).*/\1/p')"
run_consumer cmake_c sh tests/consumer/cmake_consumer.sh cmake /usr tests/consumer/cmake_project_c \
  "$work/cmake_c" cc c++ consumer_c_shared consumer_c_static
[ "$(passed 'all checks passed' cmake_c)" = 2 ] || fail "CMake C-only consumers"
run_consumer examples sh tests/consumer/cmake_consumer.sh cmake /usr examples "$work/examples" cc c++ use_cases_cpp
[ "$(passed ' 5000 of 5000 present rows found$' examples)" = 1 ] || fail "examples/use_cases.cpp"

echo "--- Python: import bloomkit with /usr/bin/python3 (python3-bloomkit)"
(cd "$work" && /usr/bin/python3 -c '
import bloomkit, sys
f = bloomkit.Filter(capacity=1000, fp_rate=0.01)
f.add("alice")
assert "alice" in f, "false negative"
print(bloomkit.__file__)
print(bloomkit.library_path())
') | tee "$work/python.log"
[ "$(sed -n 1p "$work/python.log")" = /usr/lib/python3/dist-packages/bloomkit/__init__.py ] ||
  fail "python3 imported bloomkit from elsewhere"
owned_by libbloomfilter1 "$(sed -n 2p "$work/python.log")"
# python3-dev is a build dependency, so the package carries the C fast path.
BLOOM_TEST_PREFIX=/usr BLOOM_TEST_LIBDIR="$libdir" BLOOM_TEST_PYTHON_DIR=lib/python3/dist-packages \
  BLOOM_TEST_EXPECT_IMPLEMENTATION=cext PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m unittest discover -s tests/python/installed -p 'test_*.py'

echo "--- the bloom command (bloomfilter-tools)"
[ "$(command -v bloom)" = /usr/bin/bloom ] || fail "bloom resolves to $(command -v bloom), not /usr/bin/bloom"
owned_by bloomfilter-tools /usr/bin/bloom
bloom --version
bloom build samples/keys.txt -o "$work/keys.bloom" -p 0.001
first=$(head -n 1 samples/keys.txt)
answer=$(bloom query "$work/keys.bloom" "$first")
echo "$answer"
[ "$answer" = "$first	maybe" ] || fail "bloom query of a built key"
for page in $(dpkg -L bloomfilter-tools | grep '/man/man1/'); do
  { [ -f "$page" ] && gzip -t "$page"; } || fail "man page $page"
done
echo "man pages: $(dpkg -L bloomfilter-tools | grep -c '/man/man1/.' || true)"

echo "--- the Redis module (redis-bloomfilter) in a redis-server on 127.0.0.1"
module=/usr/lib/redis/modules/bloom_redis.so
owned_by redis-bloomfilter "$module"
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$work" \
  --loadmodule "$module" >"$work/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 1 100); do
  redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG && break
  kill -0 "$redis_pid" 2>/dev/null || { cat "$work/redis.log"; fail "redis-server did not start with the module"; }
  sleep 0.1
done
cli() { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
cli MODULE LIST | grep -qx bf || fail "MODULE LIST does not name bf"
[ "$(cli BF.RESERVE k 0.01 1000)" = OK ] || fail "BF.RESERVE"
[ "$(cli BF.ADD k alice)" = 1 ] || fail "BF.ADD"
[ "$(cli BF.EXISTS k alice)" = 1 ] || fail "BF.EXISTS of an added item"
[ "$(cli BF.EXISTS k bob)" = 0 ] || fail "BF.EXISTS of an absent item"
echo "redis-server $(cli INFO server | sed -n 's/^redis_version:\(.*\)\r$/\1/p') loaded $module: BF.* answer"
cli SHUTDOWN NOSAVE >/dev/null 2>&1 || true
wait "$redis_pid" 2>/dev/null || true
redis_pid=""

end=$(date +%s)
echo "debian packages: build $((built - start)) s, lintian $((linted - built)) s, install and consumer tests $((end - linted)) s, total $((end - start)) s"
