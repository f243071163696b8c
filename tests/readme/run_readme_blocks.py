#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs README.md's code blocks as a reader would, against an installed bloom.

Every fenced block is either run here or named in NOT_RUN_HERE with the
place that runs it; a block that is neither fails `--check-coverage`, so a
new README example cannot go untested. A run passes only when the block
exits 0 *and* prints what the README says it does.

  run_readme_blocks.py --readme README.md --prefix P --libdir lib \
      --python-dir lib/python3/dist-packages --work DIR (--lang c|cpp|python|cli | --check-coverage)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

# Blocks run elsewhere, by their first line: why not here, and where.
NOT_RUN_HERE = {
    "scripts/quickstart.sh": "the quick start installs packages and into a prefix: CI step 80-quickstart.sh runs it",
    "cmake -S . -B build-release": "the install section builds the tree again: CI step 80-quickstart.sh runs it after the quick start",
    "apt-get install --no-install-recommends debhelper": "the Debian packages' build: CI step 80-debian.sh installs the same list (scripts/packages.d/debian.txt) and builds, lints and installs the packages",
}

# What each block must print (regular expressions, all must match).
EXPECTED = {
    "c": [r"alice: maybe present", r"mallory: certainly absent"],
    "cpp": [r"alice: maybe", r"loaded: blocked"],
    "python": [],  # the block asserts its own results
    "cli": [r"dZZ1L1pqxm6V\tmaybe", r"KalFKB3yPB1Ors0\tmaybe", r'"kind": ?"classic"',
            r"read1\t(\d+)/\1\n", r"read4\t", r"m = 19,170,117 bits \(2\.40 MB\)\n", r"k = 13 hashes", r"(?m)^ *10000$"],
}


def blocks(readme):
    """(language, first line, code) of every fenced block, in order."""
    text = open(readme, encoding="utf-8").read()
    out = []
    for m in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M):
        code = m.group(2)
        out.append((m.group(1), code.splitlines()[0] if code else "", code))
    return out


def kind_of(lang, first):
    if lang == "sh":
        for start in NOT_RUN_HERE:
            if first.startswith(start):
                return None
        return "cli" if first.startswith("bloom ") else "unknown-sh"
    return lang


def run(cmd, **kw):
    print("$", cmd if isinstance(cmd, str) else " ".join(cmd), flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    sys.stdout.write(r.stdout)
    sys.stdout.write(r.stderr)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", required=True)
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--libdir", default="lib")
    ap.add_argument("--python-dir", default="lib/python3/dist-packages")
    ap.add_argument("--work", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cxx", default="c++")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--lang", choices=sorted(EXPECTED))
    g.add_argument("--check-coverage", action="store_true")
    a = ap.parse_args()

    found = blocks(a.readme)
    if a.check_coverage:
        bad = [(lang, first) for lang, first, _ in found if kind_of(lang, first) not in EXPECTED and
               kind_of(lang, first) is not None]
        for lang, first, _ in found:
            k = kind_of(lang, first)
            print(f"{lang or '(none)':7} {first[:60]!r}: " +
                  (f"run by --lang {k}" if k in EXPECTED else
                   f"not run here: {NOT_RUN_HERE[next(s for s in NOT_RUN_HERE if first.startswith(s))]}" if k is None
                   else "NOT RUN ANYWHERE"))
        missing = [k for k in EXPECTED if not any(kind_of(l, f) == k for l, f, _ in found)]
        if bad or missing:
            print(f"FAIL: blocks no test runs: {bad}; runner kinds with no block: {missing}")
            return 1
        print(f"all {len(found)} README blocks are run")
        return 0

    codes = [code for lang, first, code in found if kind_of(lang, first) == a.lang]
    if len(codes) != 1:
        print(f"FAIL: expected one {a.lang} block in {a.readme}, found {len(codes)}")
        return 1
    code = codes[0]
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    prefix = os.path.abspath(a.prefix)
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "PYTHONPATH", "BLOOM_LIBRARY")}
    env["PKG_CONFIG_PATH"] = os.path.join(prefix, a.libdir, "pkgconfig")
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = os.path.join(prefix, a.python_dir)
    os.symlink(os.path.join(os.path.dirname(os.path.abspath(a.readme)), "samples"), os.path.join(a.work, "samples"))

    if a.lang in ("c", "cpp"):
        src = os.path.join(a.work, "app." + a.lang)
        with open(src, "w") as f:
            f.write(code)
        # The README's own build line.
        compiler = a.cc if a.lang == "c" else a.cxx + " -std=c++20"
        r = run(f'{compiler} app.{a.lang} -o app $(pkg-config --cflags --libs bloom)', shell=True, cwd=a.work, env=env)
        if r.returncode != 0:
            print(f"FAIL: the {a.lang} block does not build (exit {r.returncode})")
            return 1
        r = run(["./app"], cwd=a.work, env=env)
    elif a.lang == "python":
        r = run([sys.executable, "-c", code], cwd=a.work, env=env)
    else:
        r = run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=a.work, env=env)
    output = r.stdout + r.stderr
    if r.returncode != 0:
        print(f"FAIL: the {a.lang} block exited {r.returncode}")
        return 1
    for pattern in EXPECTED[a.lang]:
        if not re.search(pattern, output):
            print(f"FAIL: the {a.lang} block's output does not match {pattern!r}")
            return 1
    print(f"the README's {a.lang} block ran: exit 0, output as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
