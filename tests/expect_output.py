#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs a command and passes only when its exit status *and* its output are
as expected: ctest's PASS_REGULAR_EXPRESSION alone ignores the exit status,
so a program that printed the right lines and then crashed would pass.

  expect_output.py [--fails] REGEX [REGEX...] -- COMMAND [ARG...]

Without --fails the command must exit 0; with it, it must exit non-zero (and
not be killed by a signal). Every REGEX (Python syntax, searched in stdout
and stderr together) must match.
"""

import re
import subprocess
import sys


def main(argv):
    if "--" not in argv:
        print(__doc__)
        return 2
    split = argv.index("--")
    patterns, command = argv[:split], argv[split + 1:]
    fails = "--fails" in patterns
    patterns = [p for p in patterns if p != "--fails"]
    if not command:
        print("expect_output.py: no command")
        return 2
    r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = r.stdout.decode("utf-8", "replace")
    sys.stdout.write(output)
    ok = True
    if r.returncode < 0:
        print(f"FAIL: killed by signal {-r.returncode}")
        ok = False
    elif fails and r.returncode == 0:
        print("FAIL: exited 0; expected a failure")
        ok = False
    elif not fails and r.returncode != 0:
        print(f"FAIL: exited {r.returncode}; expected 0")
        ok = False
    for p in patterns:
        if not re.search(p, output):
            print(f"FAIL: the output does not match {p!r}")
            ok = False
    if ok:
        print(f"expect_output: exit status {r.returncode} and output as expected")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
