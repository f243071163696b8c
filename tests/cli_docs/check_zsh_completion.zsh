#!/usr/bin/env zsh
# SPDX-License-Identifier: Apache-2.0
# The installed zsh completion offers what the tool offers: the cmds
# (with their summaries) that `bloom --help` lists, each command's options
# from its --help, and files elsewhere. Completion's own functions are
# stand-ins that print what they are given, so this runs without a terminal.
#   zsh -f check_zsh_completion.zsh BLOOM COMPLETION_FILE
emulate -L zsh
setopt err_return pipe_fail
bloom=$1 file=$2
fail() { print -r -- "FAIL: $*"; exit 1 }

_call_program() { shift; "$@" }
_describe() {
  # _describe [-t TAG] DESCRIPTION ARRAY_NAME
  [[ $1 == -t ]] && shift 2
  print -rl -- "${(@P)2}"
}
_files() { print -r -- "<files>" }

source $file   # defines _bloom (and calls it once with no words)

offered() { local -a words; words=("$@"); local CURRENT=$#words PREFIX=${words[-1]}; _bloom }

cmds=(${(f)"$($bloom --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\)  .*/\1/p')"})
(( $#cmds >= 6 )) || fail "bloom --help lists too few cmds: $cmds"
got=("${(@f)$(offered $bloom '')}")
for c in $cmds; do
  (( ${got[(I)$c:*]} )) || fail "'bloom <TAB>' lacks $c (got: $got)"
done
print -r -- "bloom <TAB>: ${got[1]} ..."

total=0
for c in $cmds; do
  opts=(${(f)"$($bloom $c --help | sed -n 's/^  \(-[^ ].*\)/\1/p' | sed 's/   *.*//' | grep -oE -- '--?[A-Za-z0-9][A-Za-z0-9-]*')"})
  got=("${(@f)$(offered $bloom $c -)}")
  for o in $opts; do
    (( ${got[(Ie)$o]} )) || fail "'bloom $c -<TAB>' lacks $o (got: $got)"
    (( total += 1 ))
  done
  print -r -- "bloom $c -<TAB>: $got"
done
(( total > 10 )) || fail "only $total options seen: is the --help parsing broken?"
for list opt in kinds --kind hashes --hash; do
  want=(${(f)"$($bloom --list $list)"})
  (( $#want >= 3 )) || fail "bloom --list $list gave: $want"
  got=("${(@f)$(offered $bloom build $opt '')}")
  [[ "$got" == "$want" ]] || fail "'bloom build $opt <TAB>' gave $got, not $want"
  print -r -- "bloom build $opt <TAB>: $got"
done
[[ "$(offered $bloom build keys)" == "<files>" ]] || fail "'bloom build keys<TAB>' does not complete files"
print -r -- "zsh completion: cmds, $total options and files as the tool says"
