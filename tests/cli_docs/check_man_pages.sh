#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The installed man pages follow the tool: every command `bloom --help` lists
# has a page, every option a command's --help lists is in its page, man
# renders each page without warnings, and man finds them in the prefix.
#   check_man_pages.sh BLOOM PREFIX MANDIR(relative to PREFIX)
set -euo pipefail
bloom=$1 prefix=$(cd "$2" && pwd) mandir=$prefix/$3/man1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

commands=$("$bloom" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\)  .*/\1/p')
[ -n "$commands" ] || fail "no commands in bloom --help"
pages="bloom $(printf 'bloom-%s ' $commands)"
checked=0
for page in $pages; do
  file=$mandir/$page.1
  [ -f "$file" ] || fail "$file missing (commands: $(echo $commands))"
  # One rendering: the text, and groff's warnings on stderr.
  text=$(MANWIDTH=100 MAN_KEEP_FORMATTING= man --warnings -l "$file" 2>"$tmp" | col -b)
  [ ! -s "$tmp" ] || fail "man warns about $page: $(cat "$tmp")"
  if [ "$page" = bloom ]; then
    help=$("$bloom" --help)
    for c in $commands; do
      grep -q "^ *$c " <<<"$text" || fail "bloom(1) does not list the command $c"
    done
  else
    help=$("$bloom" "${page#bloom-}" --help)
  fi
  # The options: the flags before the description on each "  -x, --long ARG" line.
  opts=$(sed -n 's/^  \(-[^ ].*\)/\1/p' <<<"$help" | sed 's/   *.*//' | grep -oE -- '--?[A-Za-z0-9][A-Za-z0-9-]*' || true)
  for o in $opts; do
    grep -qF -e "$o" <<<"$text" || fail "$page(1) lacks the option $o that its --help lists"
    checked=$((checked + 1))
  done
  # Each line of the Examples block is a line of the page's EXAMPLES, as
  # written (help2man alone filled them into one paragraph).
  examples=$(sed -n '/^Examples\{0,1\}:$/,/^$/{/^  /s/^  //p}' <<<"$help")
  squeeze() { tr -s ' \t' ' ' | sed 's/^ //;s/ $//'; }
  page_examples=$(sed -n '/^EXAMPLES$/,/^[A-Z]/p' <<<"$text" | squeeze)
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    grep -qxF -- "$(squeeze <<<"$line")" <<<"$page_examples" ||
      fail "$page(1) EXAMPLES does not show the line: $line"
    checked=$((checked + 1))
  done <<<"$examples"
  echo "$page(1): $(wc -l <<<"$text") lines, options: $(echo $opts), $(grep -c . <<<"$examples" || true) example lines"
done
[ "$checked" -gt 10 ] || fail "only $checked options checked: is the option parsing of --help broken?"

# man finds them by name in the prefix (as it does under /usr/local).
found=$(MANPATH=$prefix/${3} man -w bloom-dedup)
[ "$found" = "$mandir/bloom-dedup.1" ] || fail "man -w bloom-dedup found '$found'"
echo "man pages: all $(echo $pages | wc -w) pages present and complete ($checked options)"
