#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A C program outside the tree built with `pkg-config --cflags --libs bloom`
# against the install in PREFIX, run without LD_LIBRARY_PATH. It must link
# libbloomfilter.so.1 from PREFIX, never Debian's libbloom.so.1, also (and
# above all) when libbloom-dev's /usr/include/bloom.h and libbloom.so exist.
#   pkgconfig_shared.sh CC PREFIX LIBDIR SOURCE WORKDIR
set -eu
CC=$1 PREFIX=$2 LIBDIR=$3 SRC=$4 WORK=$5
rm -rf "$WORK" && mkdir -p "$WORK"
export PKG_CONFIG_PATH="$PREFIX/$LIBDIR/pkgconfig"
unset LD_LIBRARY_PATH || true

if [ -f /usr/include/bloom.h ]; then
  echo "Debian's libbloom-dev is installed (/usr/include/bloom.h): checking that ours is used"
else
  echo "note: /usr/include/bloom.h absent; the coexistence half of this test is not exercised"
fi
flags=$(pkg-config --cflags --libs bloom)
echo "pkg-config --cflags --libs bloom: $flags"
# shellcheck disable=SC2086
"$CC" -std=c99 -Wall -Wextra -Werror -o "$WORK/consumer" "$SRC" $flags -lm

needed=$(readelf -d "$WORK/consumer" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "NEEDED: $(echo $needed)"
echo "$needed" | grep -qx 'libbloomfilter.so.1' || { echo "FAIL: not linked against libbloomfilter.so.1"; exit 1; }
if echo "$needed" | grep -q '^libbloom\.so'; then echo "FAIL: linked against Debian's libbloom"; exit 1; fi
resolved=$(ldd "$WORK/consumer" | sed -n 's/.*libbloomfilter.so.1 => \([^ ]*\).*/\1/p')
echo "libbloomfilter.so.1 resolves to: $resolved"
case "$(readlink -f "$resolved")" in
  "$(readlink -f "$PREFIX")"/*) ;;
  *) echo "FAIL: the loader picks $resolved, not the library in $PREFIX"; exit 1 ;;
esac
"$WORK/consumer" "$WORK"
