#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# abi/update-baseline.sh [library]
#   regenerates abi/libbloomfilter.abi, the working baseline
#   .ci/steps.d/40-abi.sh compares every build against.
# abi/update-baseline.sh --release X.Y.Z [library]
#   records the ABI of release X.Y.Z as abi/releases/libbloomfilter-X.Y.Z.abi,
#   once, from the build of the release commit (docs/release.md). A release
#   baseline is never regenerated: every later build must stay compatible
#   with it (abi/release_compatible.py), so it refuses to overwrite one.
#
# Run the first form (and commit the result) only after a deliberate,
# reviewed change of the ABI: new functions appended to bloom.h, or members
# appended to a struct_size-versioned struct. The library must be built with
# debug info (the default RelWithDebInfo build does): abidw reads the types
# from DWARF.
set -euo pipefail
cd "$(dirname "$0")/.."
release=""
if [ "${1:-}" = "--release" ]; then
  release="${2:?--release needs the version, e.g. --release 0.3.0}"
  shift 2
fi
lib="${1:-build/src/libbloomfilter.so}"
[ -e "$lib" ] || { echo "update-baseline: $lib not found; build first (cmake -S . -B build && cmake --build build)" >&2; exit 1; }
if [ -n "$release" ]; then
  project=$(sed -n 's/^project(bloom VERSION \([0-9.]*\) .*/\1/p' CMakeLists.txt)
  [ "$project" = "$release" ] || { echo "update-baseline: CMakeLists.txt says $project, not $release" >&2; exit 1; }
  out="abi/releases/libbloomfilter-$release.abi"
  [ ! -e "$out" ] || { echo "update-baseline: $out exists; a release baseline is recorded once" >&2; exit 1; }
else
  out=abi/libbloomfilter.abi
fi
abidw --no-corpus-path --out-file "$out" "$lib"
echo "$out regenerated from $lib ($(grep -c '<elf-symbol' "$out") symbols)"
