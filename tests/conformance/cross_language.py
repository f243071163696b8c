#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cross-language round trip of the conformance images.

    cross_language.py BLOOM_CLI WORK_DIR NAME=COMMAND [NAME=COMMAND...]

Each COMMAND (a shell command line) runs one language's conformance runner.
They run in order; runner i writes its images to WORK_DIR/NAME
(BLOOM_CONFORMANCE_OUT) and checks the images of runner i-1
(BLOOM_CONFORMANCE_IN), and the first also checks the last's in a second
pass, so every image set is loaded by another language. Then the CLI loads
every set (cli_roundtrip.py): same bytes, same answers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(name: str, cmd: str, out: str, inp: str) -> bool:
    env = dict(os.environ)
    env.pop("BLOOM_CONFORMANCE_OUT", None)
    env.pop("BLOOM_CONFORMANCE_IN", None)
    if out:
        env["BLOOM_CONFORMANCE_OUT"] = out
    if inp:
        env["BLOOM_CONFORMANCE_IN"] = inp
    what = f"{name}" + (f" writing {out}" if out else "") + (f" reading {inp}" if inp else "")
    print(f"--- {what}", flush=True)
    proc = subprocess.run(cmd, shell=True, env=env)
    if proc.returncode != 0:
        print(f"FAIL: {what}: exit status {proc.returncode}")
        return False
    return True


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    cli, work = sys.argv[1], sys.argv[2]
    runners = [arg.split("=", 1) for arg in sys.argv[3:]]
    shutil.rmtree(work, ignore_errors=True)
    ok = True
    dirs = []
    for i, (name, cmd) in enumerate(runners):
        out = os.path.join(work, name)
        os.makedirs(out)
        ok &= run(name, cmd, out, dirs[-1] if dirs else "")
        dirs.append(out)
    if len(runners) > 1:
        name, cmd = runners[0]
        ok &= run(name, cmd, "", dirs[-1])
    proc = subprocess.run([sys.executable, os.path.join(HERE, "cli_roundtrip.py"), cli, *dirs])
    ok &= proc.returncode == 0
    print("cross-language round trip:", "pass" if ok else "FAIL", f"({', '.join(n for n, _ in runners)} and the CLI)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
