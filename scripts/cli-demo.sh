#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's main job with the command-line tool: build a filter from the
# sample keys, query it, print its stats -- and check each answer, so the
# demo fails loudly when the tool does not do what the README says.
#   BLOOM=<bloom> OUT_DIR=<dir> scripts/cli-demo.sh
# Defaults: the tool from the test build (build/tools/bloom), output in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bloom=${BLOOM:-build/tools/bloom}
out=${OUT_DIR:-build}
filter=$out/sample-cli.bloom

fail() { echo "cli-demo: FAIL: $*" >&2; exit 1; }

"$bloom" build samples/keys.txt -o "$filter"
[ -s "$filter" ] || fail "bloom build wrote no filter to $filter"

# Two keys from samples/keys.txt and one that is not there: exit status 1
# means "some key answered no", which not-a-key must.
status=0
answers=$("$bloom" query "$filter" dZZ1L1pqxm6V KalFKB3yPB1Ors0 not-a-key) || status=$?
printf '%s\n' "$answers"
[ "$status" -eq 1 ] || fail "bloom query exited $status, expected 1 (some key answered no)"
expected=$(printf 'dZZ1L1pqxm6V\tmaybe\nKalFKB3yPB1Ors0\tmaybe\nnot-a-key\tno')
[ "$answers" = "$expected" ] || fail "bloom query answered:
$answers
expected:
$expected"

stats=$("$bloom" stats "$filter")
printf '%s\n' "$stats"
grep -q 'classic' <<<"$stats" || fail "bloom stats does not name the kind (classic)"
grep -Eq '10,?000' <<<"$stats" || fail "bloom stats does not show the 10,000 keys the filter was built from"
echo "cli-demo: all answers as expected"
