#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ABI stability: the shared library built by .ci/run (build/, RelWithDebInfo,
# so with DWARF) is compared with the stored baseline abi/libbloomfilter.abi.
# Added functions are compatible and pass; anything else abidiff reports
# (a removed or changed function, a changed type or struct layout) fails.
# After a deliberate change, run abi/update-baseline.sh and commit.
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
