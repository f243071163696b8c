#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/interop/run_interop.sh [BUILD_DIR] -- the library against the real
# libraries whose filters it reads and writes:
#  - Guava (Debian's libguava-java): GuavaFilters.java writes filters with
#    the string and long funnels at p = 1e-2 and 1e-4, and each key's
#    mightContain answer;
#  - bits-and-blooms/bloom v3 (Debian's golang-github-willf-bloom-dev):
#    bitsandblooms/main.go does the same for strings and 8-byte integers;
#  - Parquet: split-block filters written from the specification by
#    interop_check itself (strings and int64), and parquet-java's fixture.
# interop_check then imports each, compares every key's answer, exports it
# back (same bytes), and builds the same filter from its keys with the
# library (same bytes). Exit 0 only when all of that holds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
lib="$build/src"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

guava_jar=/usr/share/java/guava.jar
gopath=/usr/share/gocode
[ -r "$guava_jar" ] || { echo "run_interop: $guava_jar missing (apt-get install libguava-java)" >&2; exit 1; }
[ -d "$gopath/src/github.com/bits-and-blooms/bloom" ] ||
  { echo "run_interop: bits-and-blooms missing (apt-get install golang-github-willf-bloom-dev)" >&2; exit 1; }

cc -std=c99 -O1 -Wall -Wextra -Werror -I"$here/../../include" -o "$work/interop_check" "$here/interop_check.c" \
  -L"$lib" -lbloomfilter -Wl,-rpath,"$lib"
check="$work/interop_check"

echo "=== Guava $(unzip -p "$guava_jar" META-INF/MANIFEST.MF 2>/dev/null | tr -d '\r' | sed -n 's/^Bundle-Version: //p')"
javac -cp "$guava_jar" -d "$work" "$here/GuavaFilters.java"
java -cp "$guava_jar:$work" GuavaFilters "$work"
echo "=== bits-and-blooms (Go $(go env GOVERSION))"
# GOPATH mode: Debian installs the library as source under /usr/share/gocode.
(cd "$here/bitsandblooms" && GOPATH="$gopath" GO111MODULE=off GOFLAGS= GOCACHE="$work/gocache" \
  go build -o "$work/bitsandblooms" .)
"$work/bitsandblooms" "$work"
echo "=== Parquet (from the specification)"
"$check" parquet-spec "$work"

status=0
for funnel in string long; do
  for p in 0.01 0.0001; do
    "$check" guava "$work/guava_${funnel}_$p.bin" "$work/guava_${funnel}_$p.keys" 2000 "$p" || status=1
  done
done
for keys in string int; do
  for p in 0.01 0.0001; do
    "$check" bits-and-blooms "$work/bitsandblooms_${keys}_$p.bin" "$work/bitsandblooms_${keys}_$p.keys" 2000 "$p" ||
      status=1
  done
done
for keys in string int64; do
  "$check" parquet "$work/parquet_$keys.bin" "$work/parquet_$keys.keys" 1000 0 || status=1
done
# parquet-java's filter of four strings (tests/interop/parquet/README.md).
for k in hello parquet bloom filter; do printf '%s 1\n' "$(printf '%s' "$k" | od -An -tx1 | tr -d ' \n')"; done \
  > "$work/fixture.keys"
"$check" parquet "$here/parquet/bloom_filter.xxhash.bin" "$work/fixture.keys" 4 0 || status=1
[ "$status" -eq 0 ] && echo "interop: every filter answers as its writer and exports its bytes"
exit "$status"
