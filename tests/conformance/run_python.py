#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The conformance suite (cases.json) through the Python package bloomkit.

For each case: create, add (batch or one by one), remove, then every query
answer single and batch, every recorded info field, the serialized size and
SHA-256; then the same answers from a deserialized copy (whose image must be
byte-identical), a saved and loaded file and a mapped file. Golden files are
loaded and checked. Every failure is reported; the exit status is 1 if any.

Environment:
  BLOOM_CONFORMANCE_OUT  write each case's image there as <case>.bloom
  BLOOM_CONFORMANCE_IN   also load <case>.bloom from there (written by another
                         language) and check its answers and bytes
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
if "bloomkit" not in sys.modules:
    sys.path.insert(0, os.path.join(ROOT, "python"))

import bloomkit  # noqa: E402
from generate import make_filter  # noqa: E402
from keys import decode  # noqa: E402


class Failures:
    def __init__(self) -> None:
        self.items: List[str] = []

    def check(self, ok: bool, where: str, what: str) -> None:
        if not ok:
            self.items.append(f"{where}: {what}")


def check_answers(fails: Failures, f: "bloomkit.Filter", query: List[List[Any]], where: str) -> None:
    keys = [decode(k) for k, _ in query]
    batch = f.contains_many(keys)
    for (k, want), raw, got_batch in zip(query, keys, batch):
        got = raw in f
        fails.check(got == want, where, f"query {k!r} = {got}, expected {want}")
        fails.check(got_batch == want, where, f"batch query {k!r} = {got_batch}, expected {want}")


def check_info(fails: Failures, f: "bloomkit.Filter", want: Dict[str, Any], where: str) -> None:
    i = f.info
    flags = [fl for fl, on in (("concurrent", i.concurrent),
                               ("plain_double_hashing", i.plain_double_hashing)) if on]
    have = {"kind": i.kind, "hash": i.hash, "seed": i.seed, "flags": flags, "hashes": i.hashes,
            "bits": i.bits, "bytes": i.bytes, "capacity": i.capacity, "keys_added": i.keys_added,
            "stages": i.stages, "counter_bits": i.counter_bits}
    for field, value in want.items():
        if field not in have:
            fails.check(False, where, f"info field {field!r} is unknown to this runner")
            continue
        fails.check(have[field] == value, where, f"info.{field} = {have[field]!r}, expected {value!r}")


def run_case(fails: Failures, case: Dict[str, Any], tmp: str) -> None:
    name = case["name"]
    f = make_filter(case["options"])
    keys = [decode(k) for k in case["add"]]
    if case["add_batch"]:
        f.add_many(keys)
    else:
        for k in keys:
            f.add(k)
    for k in case.get("remove", []):
        f.remove(decode(k))
    check_answers(fails, f, case["query"], name)
    check_info(fails, f, case["info"], name)
    image = f.to_bytes()
    fails.check(len(image) == case["image_size"], name, f"image size {len(image)}, expected {case['image_size']}")
    fails.check(hashlib.sha256(image).hexdigest() == case["image_sha256"], name, "image sha256 differs")
    copy = bloomkit.Filter.from_bytes(image)
    check_answers(fails, copy, case["query"], name + " (deserialized)")
    fails.check(copy.to_bytes() == image, name, "deserialized copy serializes to other bytes")
    path = os.path.join(tmp, name + ".bloom")
    f.save(path)
    loaded = bloomkit.Filter.load(path)
    check_answers(fails, loaded, case["query"], name + " (loaded)")
    fails.check(loaded.to_bytes() == image, name, "loaded file serializes to other bytes")
    mapped = bloomkit.Filter.map(path)
    check_answers(fails, mapped, case["query"], name + " (mapped)")
    out = os.environ.get("BLOOM_CONFORMANCE_OUT")
    if out:
        f.save(os.path.join(out, name + ".bloom"))
    inp = os.environ.get("BLOOM_CONFORMANCE_IN")
    if inp:
        other = bloomkit.Filter.load(os.path.join(inp, name + ".bloom"))
        check_answers(fails, other, case["query"], name + f" (from {inp})")
        fails.check(other.to_bytes() == image, name, f"image from {inp} has other bytes")


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "cases.json")
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    if doc.get("format") != 1:
        print(f"{path}: unknown format {doc.get('format')!r}", file=sys.stderr)
        return 1
    fails = Failures()
    with tempfile.TemporaryDirectory() as tmp:
        for case in doc["cases"]:
            before = len(fails.items)
            try:
                run_case(fails, case, tmp)
            except Exception as e:  # an unknown kind, a refused option: the case fails loudly
                fails.check(False, case["name"], f"{type(e).__name__}: {e}")
            if len(fails.items) > before:
                print(f"FAIL {case['name']}")
    for g in doc["golden"]:
        try:
            f = bloomkit.Filter.load(os.path.join(ROOT, g["file"]))
            check_answers(fails, f, g["query"], g["file"])
        except Exception as e:
            fails.check(False, g["file"], f"{type(e).__name__}: {e}")
    for item in fails.items[:50]:
        print(item, file=sys.stderr)
    ncases, ngolden = len(doc["cases"]), len(doc["golden"])
    if fails.items:
        print(f"conformance (python, library {bloomkit.version()}): {len(fails.items)} failures "
              f"in {ncases} cases + {ngolden} golden files")
        return 1
    print(f"conformance (python, library {bloomkit.version()}): {ncases} cases and {ngolden} golden files pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
