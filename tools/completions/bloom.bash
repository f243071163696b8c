# bash completion for bloom(1). The commands and each command's options are
# read from the tool's own --help when completing, so they follow the tool
# as it changes. Self-contained (plain bash, no bash-completion helpers);
# installed where bash-completion finds it: share/bash-completion/completions/bloom.
# SPDX-License-Identifier: Apache-2.0

# The commands: the "Commands:" block of `bloom --help`. The values of
# --kind and --hash: `bloom --list kinds|hashes`, the library's names.
_bloom_commands() {
  "$1" --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\)  .*/\1/p'
}

# A command's options: the flags before the description on each line of its
# --help that starts with "  -" ("  -p, --rate RATE   false-positive rate").
_bloom_options() {
  "$1" "$2" --help 2>/dev/null | sed -n 's/^  \(-[^ ].*\)/\1/p' | sed 's/   *.*//' |
    grep -oE -- '--?[A-Za-z0-9][A-Za-z0-9-]*' | sort -u
}

_bloom() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=${COMP_WORDS[COMP_CWORD-1]}
  local bloom=${COMP_WORDS[0]}
  COMPREPLY=()
  if [ "$COMP_CWORD" -ge 2 ] && { [ "$prev" = --kind ] || [ "$prev" = --hash ]; }; then
    # The library's names: `bloom --list kinds` / `bloom --list hashes`.
    local list=kinds
    [ "$prev" = --hash ] && list=hashes
    mapfile -t COMPREPLY < <(compgen -W "$("$bloom" --list "$list" 2>/dev/null)" -- "$cur")
  elif [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_bloom_commands "$bloom") --help --version" -- "$cur")
  elif [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_bloom_options "$bloom" "${COMP_WORDS[1]}") --help" -- "$cur")
  else
    # Key files, filters, FASTA/FASTQ: file names.
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -F _bloom bloom
