#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Static links against the install in PREFIX, both ways a user can type:
#  1. fully static:  cc app.c $(pkg-config --static --cflags --libs bloom) -static
#  2. only bloom static (libc, libstdc++ shared):
#                    cc app.c $(pkg-config --cflags --libs bloom-static)
# Neither binary may need libbloomfilter.so at run time; both must run.
#   pkgconfig_static.sh CC PREFIX LIBDIR SOURCE WORKDIR
set -eu
CC=$1 PREFIX=$2 LIBDIR=$3 SRC=$4 WORK=$5
rm -rf "$WORK" && mkdir -p "$WORK"
export PKG_CONFIG_PATH="$PREFIX/$LIBDIR/pkgconfig"

flags=$(pkg-config --static --cflags --libs bloom)
echo "pkg-config --static --cflags --libs bloom: $flags"
# shellcheck disable=SC2086
"$CC" -std=c99 -Wall -Wextra -o "$WORK/consumer_full_static" "$SRC" $flags -lm -static
if readelf -d "$WORK/consumer_full_static" | grep -q NEEDED; then
  echo "FAIL: the -static binary has dynamic dependencies"; readelf -d "$WORK/consumer_full_static"; exit 1
fi
"$WORK/consumer_full_static" "$WORK"

flags=$(pkg-config --cflags --libs bloom-static)
echo "pkg-config --cflags --libs bloom-static: $flags"
# shellcheck disable=SC2086
"$CC" -std=c99 -Wall -Wextra -o "$WORK/consumer_bloom_static" "$SRC" $flags -lm
if readelf -d "$WORK/consumer_bloom_static" | grep -q 'libbloom'; then
  echo "FAIL: still needs a shared libbloom*"; readelf -d "$WORK/consumer_bloom_static"; exit 1
fi
nm "$WORK/consumer_bloom_static" | grep -q ' T bloom_version_string$' || { echo "FAIL: bloom not linked in"; exit 1; }
"$WORK/consumer_bloom_static" "$WORK"
