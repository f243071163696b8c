#!/usr/bin/env bash
# The README's main job with the command-line tool: build a filter from the
# sample keys, query it, print its stats. Expects a build in ./build (as
# scripts/quickstart.sh makes); uses the tool from the build tree.
set -euo pipefail
cd "$(dirname "$0")/.."
bloom=build/tools/bloom
"$bloom" build samples/keys.txt -o build/sample-cli.bloom
# exit status 1 means "some key answered no", which not-a-key does
"$bloom" query build/sample-cli.bloom dZZ1L1pqxm6V KalFKB3yPB1Ors0 not-a-key || [ $? -eq 1 ]
"$bloom" stats build/sample-cli.bloom
