#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cross-language round trip of the conformance suite.

Each binding's runner saves every case's filter as <dir>/<case>.bloom
(BLOOM_CONFORMANCE_OUT). This checks, for every case, that the files of all
the languages given are byte-identical and hash to the case's image_sha256,
and that the CLI (`bloom query`) loading each file answers every text key of
the case as the case expects.

usage: cross_language_check.py CASES.json --cli PATH/TO/bloom LANG=DIR [LANG=DIR ...]
"""
import argparse
import hashlib
import json
import pathlib
import subprocess
import sys


def cli_keys(queries):
    """The (text, answer) pairs the CLI can take as lines of its query input."""
    out = []
    for spec, want in queries:
        if not spec.startswith("s:"):
            continue  # raw bytes: a line-based tool cannot be handed them all
        text = spec[2:]
        if not text or "\n" in text or "\r" in text or "\0" in text or text == ":Q":
            continue  # `bloom query` skips blank lines; ":Q" ends its input
        if not out and text.startswith("?"):
            continue  # a first line ?P is a rate header to `bloom query`
        out.append((text, want))
    return out


def cli_answers(cli, path, keys):
    data = "".join(k + "\n" for k, _ in keys).encode("utf-8")
    r = subprocess.run([cli, "query", str(path), "--file", "-"], input=data, capture_output=True, check=False)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"bloom query {path}: exit {r.returncode}: {r.stderr.decode(errors='replace').strip()}")
    lines = r.stdout.decode("utf-8").splitlines()
    answers = [line.rsplit("\t", 1)[1] == "maybe" for line in lines]
    if len(answers) != len(keys):
        raise RuntimeError(f"bloom query {path}: {len(answers)} answers for {len(keys)} keys")
    return answers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("--cli", required=True)
    ap.add_argument("dirs", nargs="+", help="LANG=DIR")
    args = ap.parse_args()
    suite = json.loads(pathlib.Path(args.cases).read_text(encoding="utf-8"))
    dirs = dict(d.split("=", 1) for d in args.dirs)
    failures = 0
    checked_keys = 0
    for case in suite["cases"]:
        name = case["name"]
        images = {}
        for lang, d in dirs.items():
            f = pathlib.Path(d) / f"{name}.bloom"
            if not f.is_file():
                print(f"FAIL {name}: {lang} wrote no {f}")
                failures += 1
                continue
            images[lang] = f
        digests = {lang: hashlib.sha256(f.read_bytes()).hexdigest() for lang, f in images.items()}
        for lang, digest in digests.items():
            if digest != case["image_sha256"]:
                print(f"FAIL {name}: {lang}'s file hashes to {digest}, the case says {case['image_sha256']}")
                failures += 1
        keys = cli_keys(case["query"])
        for lang, f in images.items():
            got = cli_answers(args.cli, f, keys)
            for (text, want), answer in zip(keys, got):
                if answer != want:
                    print(f"FAIL {name}: the CLI reading {lang}'s file answers {answer} for {text!r}, expected {want}")
                    failures += 1
            checked_keys += len(keys)
    langs = ", ".join(dirs)
    print(f"cross-language: {len(suite['cases'])} cases from {langs}: files identical to the cases' sha256, "
          f"{checked_keys} CLI answers checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
