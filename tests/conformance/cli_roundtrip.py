#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cross-language round trip: the CLI loads the images each runner wrote.

    cli_roundtrip.py BLOOM_CLI DIR [DIR...]

Each DIR holds <case>.bloom for every case of cases.json, written by one
language's runner (BLOOM_CONFORMANCE_OUT). For each file: its SHA-256 must
be the case's image_sha256 (every language writes identical bytes), and
`bloom query FILE KEY...` must answer every query whose key can be a command
line argument (s: keys that are non-empty and hold no NUL or newline) as the
case records. Exit status 1 on any difference.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cli, dirs = sys.argv[1], sys.argv[2:]
    with open(os.path.join(HERE, "cases.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    failures = []
    checked = 0
    for d in dirs:
        for case in doc["cases"]:
            path = os.path.join(d, case["name"] + ".bloom")
            where = f"{path}"
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError as e:
                failures.append(f"{where}: {e}")
                continue
            if hashlib.sha256(data).hexdigest() != case["image_sha256"]:
                failures.append(f"{where}: bytes differ from the case's image_sha256")
            query = [(k[2:], want) for k, want in case["query"]
                     if k.startswith("s:") and len(k) > 2 and "\0" not in k and "\n" not in k
                     and not k.startswith("s:-")]
            args = [k for k, _ in query]
            proc = subprocess.run([cli, "query", path, *args], capture_output=True)
            if proc.returncode not in (0, 1):
                failures.append(f"{where}: bloom query exited {proc.returncode}: "
                                f"{proc.stderr.decode(errors='replace').strip()}")
                continue
            lines = proc.stdout.decode("utf-8").splitlines()
            if len(lines) != len(query):
                failures.append(f"{where}: {len(lines)} answers for {len(query)} keys")
                continue
            for (key, want), line in zip(query, lines):
                expected = f"{key}\t{'maybe' if want else 'no'}"
                if line != expected:
                    failures.append(f"{where}: CLI said {line!r}, expected {expected!r}")
            checked += 1
    for f in failures[:50]:
        print(f, file=sys.stderr)
    if failures:
        print(f"cli round trip: {len(failures)} failures")
        return 1
    print(f"cli round trip: {checked} images from {len(dirs)} languages load in the CLI, "
          f"same bytes and answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
