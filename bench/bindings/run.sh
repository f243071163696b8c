#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Per-call cost of the Rust and Go bindings against the C API, in one run:
#   PKG_CONFIG_PATH=PREFIX/lib/pkgconfig LD_LIBRARY_PATH=PREFIX/lib bench/bindings/run.sh [ROUNDS]
# Builds per_call.c (the C program), the Rust bench (cargo bench, release)
# and the Go command (bindings/go/cmd/bloom-percall), then runs the three
# ROUNDS times (default 3), interleaved. The Rust and Go programs time the C
# API in their own process too, alternating run by run, and print
# "<lang> <op> <binding ns/key> <C ns/key> <ratio>"; the summary is the
# median over rounds of each column. Times are thread CPU time (the machine
# is shared); workload: 100,000 keys, classic XXH3, p = 0.01, batches of 1024.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "library: $(pkg-config --modversion bloom) from $(pkg-config --variable=libdir bloom)"
cc -O2 -Wall -Wextra $(pkg-config --cflags bloom) "$here/per_call.c" $(pkg-config --libs bloom) -o "$work/c_per_call"
(cd "$root/bindings/rust" && cargo bench --bench per_call --no-run --message-format=json 2>/dev/null) |
  sed -n 's/.*"executable":"\([^"]*per_call[^"]*\)".*/\1/p' | tail -1 > "$work/rust_bin"
rust_bin=$(cat "$work/rust_bin")
[ -x "$rust_bin" ] || { echo "could not build the Rust bench" >&2; exit 1; }
(cd "$root/bindings/go" && GOFLAGS=-mod=mod GOPROXY=off go build -o "$work/go_per_call" ./cmd/bloom-percall)
echo "$(rustc --version), $(go version | cut -d' ' -f3), $(cc --version | head -1)"

for r in $(seq "$rounds"); do
  "$work/c_per_call"
  "$rust_bin"
  "$work/go_per_call"
done | tee "$work/all"

echo "--- medians over $rounds rounds (ns per key; ratio = binding / C API in the same process)"
python3 - "$work/all" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault((f[0], f[1]), []).append(f[2:])
print(f"{'lang':5} {'op':16} {'binding':>8} {'C API':>8} {'ratio':>6}  cgo-direct")
for (lang, op), vals in rows.items():
    med = lambda i: statistics.median(float(v[i]) for v in vals)
    if lang == "c":
        print(f"{lang:5} {op:16} {'':>8} {med(0):8.1f} {'':>6}  (the standalone C program)")
        continue
    extra = f"  {med(4):.1f}" if len(vals[0]) > 4 else ""
    print(f"{lang:5} {op:16} {med(0):8.1f} {med(1):8.1f} {med(2):6.2f}{extra}")
PY
