#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's quick start as a new user runs it (scripts/quickstart.sh), in
# a scratch HOME and prefix so the CI machine's /usr/local stays as it was:
# it must install, and a fresh login shell must find bloom, man bloom and
# bloomkit (the script checks). Then the README's install block, which must
# reuse the quick start's build without compiling anything, and the
# uninstall target, which must leave no installed file and no .pth behind.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home   # the .pth files go to the user site directories under it
mkdir -p "$HOME"
prefix=$work/prefix
rm -rf build-release
start=$(date +%s)
BLOOM_PREFIX=$prefix scripts/quickstart.sh
echo "quick start: $(($(date +%s) - start)) s"

# The README's "Building and installing" block, as written.
block=$(python3 - <<'PY'
import re
text = open("README.md").read()
for m in re.finditer(r"^```sh\n(.*?)^```$", text, re.S | re.M):
    if m.group(1).startswith("cmake -S . -B build-release"):
        print(m.group(1))
PY
)
[ -n "$block" ] || { echo "FAIL: no 'cmake -S . -B build-release' block in README.md"; exit 1; }
out=$(bash -e -c "$block" 2>&1) || { echo "$out"; echo "FAIL: the README install block failed"; exit 1; }
echo "$out" | tail -5
if grep -E 'Building (C|CXX) object|Linking' <<<"$out"; then
  echo "FAIL: the README install block recompiled what the quick start had built"; exit 1
fi
[ -x "$HOME/.local/bin/bloom" ] || { echo "FAIL: the README install block did not install bloom into ~/.local"; exit 1; }
pths=$(find "$HOME" -name bloomkit.pth)
[ -n "$pths" ] || { echo "FAIL: no bloomkit.pth was written"; exit 1; }

cmake --build build-release --target uninstall
left=$(find "$prefix" "$HOME/.local" \( -type f -o -type l \) ! -name '*.pyc' 2>/dev/null || true)
[ -z "$left" ] || { echo "FAIL: uninstall left: $left"; exit 1; }
for p in $pths; do [ ! -e "$p" ] || { echo "FAIL: uninstall left $p"; exit 1; }; done
echo "quick start, README install block and uninstall: all as documented"
