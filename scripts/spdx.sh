#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adds "SPDX-License-Identifier: Apache-2.0" (LICENSE), in the file's own
# comment syntax, to every tracked source file that lacks it: C and C++
# sources and headers, CMake, shell, Python, JavaScript/TypeScript, Go, Rust
# and Java, plus extension-less scripts whose #! line names sh, bash or
# python. Idempotent: a file that has the identifier in its first 20 lines
# is left alone. The line goes first, or right after a #! line (and a
# Python coding line).
#   scripts/spdx.sh           add the line where it is missing, list the files changed
#   scripts/spdx.sh --check   change nothing; list the files without it, exit 1 if any
# (ctest runs --check when configured with -DBLOOM_SPDX_CHECK=ON.)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=add
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: scripts/spdx.sh [--check]" >&2; exit 2 ;;
esac

tag="SPDX-License-Identifier: Apache-2.0"

# The comment line for a file, or nothing when it is not a source file.
comment_for() {
  local f=$1 base=${1##*/}
  case "$base" in
    *.c | *.h) echo "/* $tag */" ;;
    *.cpp | *.hpp | *.cc | *.hh | *.cxx | *.hxx | *.ipp | *.js | *.mjs | *.cjs | *.ts | *.mts | *.cts | *.tsx | *.jsx | \
      *.go | *.rs | *.java) echo "// $tag" ;;
    CMakeLists.txt | *.cmake | *.cmake.in | *.sh | *.bash | *.zsh | *.py) echo "# $tag" ;;
    *.*) ;;
    *)
      # No extension: a script, if its first line says so.
      if head -c 2 "$f" | grep -q '^#!' && head -n 1 "$f" | grep -Eq '(^#!.*[/ ](ba|z)?sh( |$)|python)'; then
        echo "# $tag"
      elif head -n 1 "$f" | grep -q '^#compdef'; then
        echo "# $tag"
      fi
      ;;
  esac
}

# How many leading lines must stay first: a #! line (not Rust's #![...]), a
# zsh #compdef line, and after them a Python coding declaration.
keep_first() {
  local f=$1 n=0 first
  first=$(head -n 1 "$f")
  case "$f" in
    *.rs) ;;
    *) if [[ $first == '#!'* || $first == '#compdef'* ]]; then n=1; fi ;;
  esac
  if [[ $f == *.py ]] && sed -n "$((n + 1))p" "$f" | grep -Eq '^[ \t]*#.*coding[:=]'; then n=$((n + 1)); fi
  echo "$n"
}

missing=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] && [ ! -L "$f" ] || continue
  line=$(comment_for "$f")
  [ -n "$line" ] || continue
  head -n 20 "$f" | grep -Eq '^[[:space:]]*(#|//|/\*|\*)[[:space:]]*SPDX-License-Identifier:' && continue
  missing+=("$f")
  [ "$mode" = add ] || continue
  n=$(keep_first "$f")
  tmp=$(mktemp "$f.spdx.XXXXXX")
  { head -n "$n" "$f"; printf '%s\n' "$line"; tail -n +"$((n + 1))" "$f"; } >"$tmp"
  chmod --reference="$f" "$tmp"
  mv "$tmp" "$f"
done < <(git ls-files -z)

if [ "$mode" = check ]; then
  if [ ${#missing[@]} -gt 0 ]; then
    printf 'no SPDX-License-Identifier: %s\n' "${missing[@]}"
    echo "spdx: ${#missing[@]} source files without the identifier (scripts/spdx.sh adds it)"
    exit 1
  fi
  echo "spdx: every tracked source file has the identifier"
else
  [ ${#missing[@]} -eq 0 ] || printf 'added: %s\n' "${missing[@]}"
  echo "spdx: added the identifier to ${#missing[@]} files"
fi
