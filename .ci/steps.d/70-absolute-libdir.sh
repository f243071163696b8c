#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Distributions that pass an absolute CMAKE_INSTALL_LIBDIR (e.g. Nix, or
# -DCMAKE_INSTALL_LIBDIR=/usr/lib64) and pick the prefix only at install
# time: bloom.pc must name the install's includedir, not the configured one,
# and a C program built with `pkg-config --cflags --libs bloom` must run.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=build-abslibdir
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DBLOOM_WARNINGS_AS_ERRORS=ON -DBLOOM_BUILD_TESTS=OFF \
  -DBLOOM_BUILD_BENCH=OFF -DBLOOM_PYTHON_SOURCE_PATHS=OFF \
  -DCMAKE_INSTALL_PREFIX="$work/configured" -DCMAKE_INSTALL_LIBDIR="$work/libs"
cmake --build "$dir" -j2
cmake --install "$dir" --prefix "$work/installed" >/dev/null
export PKG_CONFIG_PATH="$work/libs/pkgconfig"
cflags=$(pkg-config --cflags bloom | xargs)  # (pkg-config ends it with a space)
[ "$cflags" = "-I$work/installed/include" ] || { echo "FAIL: bloom.pc gives '$cflags'"; exit 1; }
[ -f "$work/installed/include/bloom/bloom.h" ] || { echo "FAIL: no header under the install prefix"; exit 1; }
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror -o "$work/consumer" tests/consumer/consumer_check.c \
  $(pkg-config --cflags --libs bloom) -lm
"$work/consumer" "$work" | tee "$work/out"
grep -q 'all checks passed' "$work/out"
# bloom-static.pc names the archive by path in the same libdir.
# shellcheck disable=SC2046
cc -std=c99 -o "$work/consumer_static" tests/consumer/consumer_check.c $(pkg-config --cflags --libs bloom-static)
"$work/consumer_static" "$work" | grep -q 'all checks passed'
echo "absolute libdir install: bloom.pc and bloom-static.pc work"
