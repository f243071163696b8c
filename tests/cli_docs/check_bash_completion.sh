#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The installed bash completion completes what the tool offers: the commands
# `bloom --help` lists, each command's options from its --help, and file
# names elsewhere. Sourced as bash-completion would load it.
#   check_bash_completion.sh BLOOM COMPLETION_FILE
set -euo pipefail
bloom=$1
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck disable=SC1090
source "$2"
complete -p bloom | grep -q -- '-F _bloom' || fail "no 'complete -F _bloom bloom'"

# complete WORDS...: the candidates for the last word.
candidates() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _bloom
  printf '%s\n' "${COMPREPLY[@]}" | sort
}

commands=$("$bloom" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\)  .*/\1/p' | sort)
[ "$(echo "$commands" | wc -l)" -ge 6 ] || fail "bloom --help lists too few commands: $commands"
got=$(candidates "$bloom" "")
for c in $commands --help --version; do
  grep -qx -- "$c" <<<"$got" || fail "'bloom <TAB>' lacks $c: $(echo $got)"
done
[ "$(candidates "$bloom" de)" = dedup ] || fail "'bloom de<TAB>' gave $(candidates "$bloom" de)"

total=0
for c in $commands; do
  opts=$("$bloom" "$c" --help | sed -n 's/^  \(-[^ ].*\)/\1/p' | sed 's/   *.*//' |
    grep -oE -- '--?[A-Za-z0-9][A-Za-z0-9-]*' | sort -u)
  got=$(candidates "$bloom" "$c" -)
  for o in $opts; do
    grep -qx -- "$o" <<<"$got" || fail "'bloom $c -<TAB>' lacks $o"
    total=$((total + 1))
  done
  echo "bloom $c -<TAB>: $(echo $got)"
done
[ "$total" -gt 10 ] || fail "only $total options seen: is the --help parsing broken?"
[ "$(candidates "$bloom" build --cap)" = --capacity ] || fail "'bloom build --cap<TAB>' gave $(candidates "$bloom" build --cap)"

# The values of --kind and --hash: the library's names.
for list in kinds hashes; do
  opt=--kind
  [ $list = hashes ] && opt=--hash
  want=$("$bloom" --list $list | sort)
  [ "$(echo "$want" | wc -l)" -ge 3 ] || fail "bloom --list $list gave: $want"
  for c in build dedup calc; do
    got=$(candidates "$bloom" $c $opt "")
    [ "$got" = "$want" ] || fail "'bloom $c $opt <TAB>' gave $(echo $got), not $(echo $want)"
  done
done
grep -qx window <<<"$("$bloom" --list kinds)" || fail "bloom --list kinds lacks window"
[ "$(candidates "$bloom" build --kind bl)" = blocked ] || fail "'bloom build --kind bl<TAB>' gave $(candidates "$bloom" build --kind bl)"
[ "$(candidates "$bloom" calc --hash red)" = redisbloom ] || fail "'bloom calc --hash red<TAB>' gave $(candidates "$bloom" calc --hash red)"

# Anything else: file names.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
touch "$dir/keys-one.txt" "$dir/keys-two.txt"
got=$(candidates "$bloom" build "$dir/keys-")
[ "$got" = "$(printf '%s\n' "$dir/keys-one.txt" "$dir/keys-two.txt")" ] || fail "file completion gave: $got"
echo "bash completion: commands, $total options and file names as the tool says"
