#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A short libFuzzer run of every target (~20 s each, ASan + UBSan; the
# three import targets, whose inputs are small headers, ~10 s each) on top
# of the corpus replay that ctest does on every build. clang-14 and
# libclang-rt-14-dev come from scripts/packages.d/hardening.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
fuzz/run.sh "${BLOOM_FUZZ_SECONDS:-20}"
FUZZ_TARGETS="import_guava import_bits_and_blooms import_parquet" fuzz/run.sh "${BLOOM_FUZZ_IMPORT_SECONDS:-10}"
