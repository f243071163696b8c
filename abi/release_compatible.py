#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads an abidiff report (abidiff --no-added-syms RELEASE.abi LIBRARY) on
stdin and exits 0 only when every change is one this library promises to
keep compatible: functions added (hidden by --no-added-syms) and members
appended to a struct past its old end (the struct_size-versioned structs:
bloom_options, bloom_info, bloom_allocator). Anything else -- a removed or
renamed symbol, a member moved, removed or retyped, a changed return or
parameter type -- fails, naming the report line. A whitelist: a report
line this script does not know fails too, so it errs toward failing."""

import re
import sys

ALLOWED = [
    r"Functions changes summary: 0 Removed, \d+ Changed( \(\d+ filtered out\))?, \d+ Added( \(\d+ filtered out\))? functions?",
    r"Variables changes summary: 0 Removed, 0 Changed( \(\d+ filtered out\))?, \d+ Added( \(\d+ filtered out\))? variables?",
    r"Function symbols changes summary: 0 Removed, \d+ Added( \(\d+ filtered out\))? function symbols? not referenced by debug info",
    r"Variable symbols changes summary: 0 Removed, \d+ Added( \(\d+ filtered out\))? variable symbols? not referenced by debug info",
    r"\d+ functions? with some indirect sub-type change:",
    r"\[C\] 'function .*' at \S+ has some indirect sub-type changes:",
    r"parameter \d+ of type '.*' has sub-type changes:",
    r"in pointed to type '.*'( at \S+)?:",
    r"in unqualified underlying type '.*' at \S+:",
    r"underlying type '(struct|typedef) .*' at \S+ changed:",
    r"\d+ data member insertions?:",
]
SIZE = re.compile(r"type size changed from (\d+) to (\d+) \(in bits\)")
MEMBER = re.compile(r"'.*', at offset (\d+) \(in bits\) at \S+")


def main() -> int:
    old_size = None
    problems = []
    for number, raw in enumerate(sys.stdin, 1):
        line = raw.strip()
        if not line:
            continue
        m = SIZE.fullmatch(line)
        if m:
            old_size = int(m.group(1))
            if int(m.group(2)) < old_size:
                problems.append(f"{number}: a struct shrank: {line}")
            continue
        m = MEMBER.fullmatch(line)
        if m:
            if old_size is None or int(m.group(1)) < old_size:
                problems.append(f"{number}: a member inserted before the struct's old end: {line}")
            continue
        if not any(re.fullmatch(p, line) for p in ALLOWED):
            problems.append(f"{number}: not an append-only change: {line}")
    for p in problems:
        print(f"release ABI: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
