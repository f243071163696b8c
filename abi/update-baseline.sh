#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# abi/update-baseline.sh [library] -- regenerates abi/libbloomfilter.abi, the
# ABI baseline .ci/steps.d/40-abi.sh compares every build against.
#
# Run it (and commit the result) only after a deliberate, reviewed change of
# the ABI: new functions appended to bloom.h, or members appended to a
# struct_size-versioned struct. The library must be built with debug info
# (the default RelWithDebInfo build does): abidw reads the types from DWARF.
set -euo pipefail
cd "$(dirname "$0")/.."
lib="${1:-build/src/libbloomfilter.so}"
[ -e "$lib" ] || { echo "update-baseline: $lib not found; build first (cmake -S . -B build && cmake --build build)" >&2; exit 1; }
abidw --no-corpus-path --out-file abi/libbloomfilter.abi "$lib"
echo "abi/libbloomfilter.abi regenerated from $lib ($(grep -c '<elf-symbol' abi/libbloomfilter.abi) symbols)"
