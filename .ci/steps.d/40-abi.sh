#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ABI stability: the shared library built by .ci/run (build/, RelWithDebInfo,
# so with DWARF) is compared with two baselines (a few seconds each):
# - abi/libbloomfilter.abi, the working baseline: added functions are
#   compatible and pass; anything else abidiff reports (a removed or changed
#   function, a changed type or struct layout) fails. After a deliberate
#   change, run abi/update-baseline.sh and commit.
# - abi/releases/libbloomfilter-X.Y.Z.abi of the newest release: only
#   additions and members appended to the struct_size-versioned structs may
#   differ (abi/release_compatible.py), so a program built against any
#   release runs on this library. Recorded once per release
#   (abi/update-baseline.sh --release, docs/release.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
lib=build/src/libbloomfilter.so
[ -e "$lib" ] || cmake --build build -j2 --target bloom_shared
set +e
abidiff --no-added-syms abi/libbloomfilter.abi "$lib" > build/abidiff.txt 2>&1
rc=$?
set -e
# abidiff's exit status is a bit set: 1 error, 2 usage, 4 ABI change,
# 8 incompatible ABI change. --no-added-syms hides additions.
if [ "$rc" -ne 0 ]; then
  cat build/abidiff.txt
  echo "40-abi: the ABI differs from abi/libbloomfilter.abi (abidiff status $rc)." >&2
  echo "40-abi: if the change is deliberate and compatible, run abi/update-baseline.sh and commit." >&2
  exit 1
fi
added=$(abidiff abi/libbloomfilter.abi "$lib" | grep -Eo '[0-9]+ Added function' | head -1 || true)
echo "40-abi: ABI compatible with the baseline (${added:-0 Added functions})"

release=$(ls abi/releases/libbloomfilter-*.abi | sort -V | tail -1)
set +e
abidiff --no-added-syms "$release" "$lib" > build/abidiff-release.txt 2>&1
rc=$?
set -e
# Bits 1, 2 (abidiff failed) and 8 (incompatible) fail outright; bit 4 is
# judged line by line.
if [ $((rc & 11)) -ne 0 ] || ! python3 abi/release_compatible.py < build/abidiff-release.txt; then
  cat build/abidiff-release.txt
  echo "40-abi: not compatible with the release baseline $release (abidiff status $rc)." >&2
  exit 1
fi
echo "40-abi: a program built against $(basename "$release" .abi) runs on this library (abidiff status $rc: additions only)"
