#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes tests/conformance/cases.json: the cases every binding runs.

The expected answers, info fields and image hashes come from the C library
through the Python package (python/bloomkit), so the file records what the
library does today; a binding, the C runner or a later library that answers
differently fails. Expected answers of the golden files come from their
committed .answers files, not from the library.

    generate.py            rewrite cases.json
    generate.py --check    exit 1 when cases.json differs from a fresh run

The schema is /work/wt/CONFORMANCE.md's (tests/conformance/README.md).
Every case's added keys are checked to answer "maybe" before it is written:
the generator refuses to record a false negative.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import sys
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)

import bloomkit  # noqa: E402
from bloomkit import _native  # noqa: E402
from keys import decode  # noqa: E402

HASHES = ["xxh3", "murmur3", "fnv1a"]
BASE_KINDS = ["classic", "partitioned", "blocked", "counting", "scalable"]
# Which kinds take which flag (bloom.h): scalable refuses concurrent,
# blocked refuses plain double hashing.
TAKES_FLAG = {
    "concurrent": {"classic", "partitioned", "blocked", "counting", "window"},
    "plain_double_hashing": {"classic", "partitioned", "counting", "scalable", "window"},
}
# Keys every case adds besides its own numbered ones: the empty key, NUL
# bytes, multi-byte UTF-8, invalid UTF-8.
SPECIAL_KEYS = [
    "s:", "x:00", "x:0000", "x:616200", "x:00616263", "s:alice", "s:héllo wörld",
    "s:日本語のキー", "s:🙂 emoji", "x:00ff10", "x:ff", "x:c328", "x:fffefdfc00",
]
ABSENT_SPECIAL = ["x:01", "x:000000", "s:bob", "s:héllo", "x:c3", "x:00ff11"]
GOLDEN_KEYS = 5  # every golden case added golden-key-0..4 at least (golden_cases.hpp)
GOLDEN_PROBES = 200  # of the 4000 recorded golden-probe-<i> answers


def window_supported() -> bool:
    """The window kind is in the library and the Python package takes it."""
    if _native.lib.bloom_kind_from_name(b"window") == 0:
        return False
    return "window_ms" in inspect.signature(bloomkit.Filter.__init__).parameters


def options(kind: str, hash_: str, **over: Any) -> Dict[str, Any]:
    o = {"kind": kind, "capacity": 1000, "fp_rate": 0.01, "hash": hash_, "seed": 0, "flags": [],
         "bits": 0, "hashes": 0, "growth": 2.0, "tightening": 0.85, "counter_bits": 4, "window_ms": 0}
    o.update(over)
    return o


def make_filter(o: Dict[str, Any]) -> "bloomkit.Filter":
    kw: Dict[str, Any] = dict(
        capacity=o["capacity"], fp_rate=o["fp_rate"], kind=o["kind"], hash=o["hash"],
        seed=o["seed"], bits=o["bits"], hashes=o["hashes"],
        concurrent="concurrent" in o["flags"],
        plain_double_hashing="plain_double_hashing" in o["flags"],
        growth=o["growth"], tightening=o["tightening"], counter_bits=o["counter_bits"])
    if o["window_ms"]:
        kw["window_ms"] = o["window_ms"]
    return bloomkit.Filter(**kw)


def build_case(name: str, o: Dict[str, Any], n_keys: int, batch: bool,
               remove: Optional[List[str]] = None, n_absent: int = 40) -> Dict[str, Any]:
    added = SPECIAL_KEYS + [f"s:{name}/key-{i}" for i in range(n_keys)]
    absent = ABSENT_SPECIAL + [f"s:{name}/absent-{i}" for i in range(n_absent)] + [
        "x:" + bytes([i, 0, 255 - i]).hex() for i in range(0, 256, 37)]
    f = make_filter(o)
    raw = [decode(k) for k in added]
    if batch:
        f.add_many(raw)
    else:
        for k in raw:
            f.add(k)
    for k in remove or []:
        f.remove(decode(k))
    query = []
    removed = set(remove or [])
    # A count window promises only its last `capacity` insertions; older
    # keys may be forgotten (docs/kinds-window.md).
    kept = set(added[-o["capacity"]:]) if o["kind"] == "window" else set(added)
    for k in added + absent:
        answer = decode(k) in f
        if k in kept and k not in removed and not answer:
            raise SystemExit(f"{name}: the library lost added key {k!r}")
        query.append([k, answer])
    i = f.info
    info = {"kind": i.kind, "hash": i.hash, "seed": i.seed,
            "flags": [fl for fl, on in (("concurrent", i.concurrent),
                                        ("plain_double_hashing", i.plain_double_hashing)) if on],
            "hashes": i.hashes, "bits": i.bits, "bytes": i.bytes, "capacity": i.capacity,
            "keys_added": i.keys_added, "stages": i.stages, "counter_bits": i.counter_bits}
    image = f.to_bytes()
    case = {"name": name, "options": o, "add": added, "add_batch": batch}
    if remove:
        case["remove"] = remove
    case.update({"query": query, "info": info, "image_size": len(image),
                 "image_sha256": hashlib.sha256(image).hexdigest()})
    return case


def cases() -> List[Dict[str, Any]]:
    out = []
    kinds = BASE_KINDS + (["window"] if window_supported() else [])
    n = 0

    def add(name: str, o: Dict[str, Any], keys: int = 40, **kw: Any) -> None:
        nonlocal n
        # Batch and single adds alternate unless a case says which.
        batch = kw.pop("batch", n % 2 == 0)
        n += 1
        out.append(build_case(name, o, keys, batch, **kw))

    # Every kind with every hasher, seed 0 and a non-zero seed.
    for kind in kinds:
        for h in HASHES:
            add(f"{kind}-{h}-seed0", options(kind, h))
            add(f"{kind}-{h}-seed-max", options(kind, h, seed=2**64 - 1))
        add(f"{kind}-xxh3-seed-golden", options(kind, "xxh3", seed=0x9E3779B97F4A7C15))
    # Flags, each alone and both together, where the kind takes them.
    for kind in kinds:
        taken = [fl for fl in ("concurrent", "plain_double_hashing") if kind in TAKES_FLAG[fl]]
        for fl in taken:
            for h in HASHES:
                add(f"{kind}-{h}-{fl}", options(kind, h, seed=7, flags=[fl]))
        if len(taken) == 2:
            add(f"{kind}-murmur3-both-flags", options(kind, "murmur3", seed=11, flags=taken))
    # Explicit m and k; a low rate (k = 20); a tiny filter (mixed probes).
    add("classic-explicit-bits-hashes", options("classic", "xxh3", bits=4096, hashes=5))
    add("classic-explicit-bits-only", options("classic", "fnv1a", bits=10007))
    add("partitioned-explicit-bits-hashes", options("partitioned", "murmur3", bits=3000, hashes=6))
    add("blocked-explicit-bits", options("blocked", "xxh3", bits=8192))
    add("blocked-explicit-bits-hashes", options("blocked", "fnv1a", bits=16384, hashes=8))
    add("counting-explicit-bits-hashes", options("counting", "xxh3", bits=2000, hashes=4))
    add("classic-low-rate", options("classic", "murmur3", fp_rate=1e-6))
    add("classic-tiny", options("classic", "xxh3", capacity=5, fp_rate=0.1), keys=3)
    add("partitioned-tiny", options("partitioned", "xxh3", capacity=20, fp_rate=0.05), keys=10)
    # Counting removes, 4- and 8-bit counters, batch and single adds.
    for cb in (4, 8):
        for h in HASHES:
            add(f"counting-{h}-c{cb}-remove", options("counting", h, seed=3, counter_bits=cb),
                remove=["s:alice", "x:00", "s:", f"s:counting-{h}-c{cb}-remove/key-3",
                        f"s:counting-{h}-c{cb}-remove/key-17"])
    add("counting-concurrent-remove", options("counting", "xxh3", flags=["concurrent"]),
        remove=["x:616200", "s:日本語のキー"])
    # Scalable growth and tightening: small first stages, many stages.
    for g, t in ((2.0, 0.85), (4.0, 0.5), (1.5, 0.9)):
        for h in HASHES:
            add(f"scalable-{h}-g{g}-t{t}", options("scalable", h, capacity=32, growth=g, tightening=t),
                keys=250)
    add("scalable-plain-grown", options("scalable", "fnv1a", capacity=50, fp_rate=0.001,
                                        flags=["plain_double_hashing"]), keys=400)
    if "window" in kinds:
        add("window-count-grown", options("window", "xxh3", capacity=100), keys=300)
    names = [c["name"] for c in out]
    assert len(names) == len(set(names)), "duplicate case names"
    return out


def golden() -> List[Dict[str, Any]]:
    out = []
    gdir = os.path.join(ROOT, "tests", "golden")
    for fn in sorted(os.listdir(gdir)):
        if not fn.endswith(".answers"):
            continue
        base = fn[: -len(".answers")]
        with open(os.path.join(gdir, fn), encoding="ascii") as fh:
            answers = fh.read().strip()
        # A window file may have forgotten its first keys by design (a time
        # window advanced past them): only its recorded probes are answers.
        keys = 0 if base.startswith("window_") else GOLDEN_KEYS
        query = [[f"s:golden-key-{i}", True] for i in range(keys)]
        query += [[f"s:golden-probe-{i}", answers[i] == "1"] for i in range(GOLDEN_PROBES)]
        # The file was recorded by an older library; today's must agree.
        f = bloomkit.Filter.load(os.path.join(gdir, base + ".bloom"))
        for k, want in query:
            if (decode(k) in f) != want:
                raise SystemExit(f"golden {base}: the library answers {k!r} unlike its .answers file")
        out.append({"file": f"tests/golden/{base}.bloom", "query": query})
    return out


def render() -> str:
    doc = {"format": 1, "library_version": bloomkit.version(), "cases": cases(), "golden": golden()}
    return dump(doc) + "\n"


def dump(value: Any, indent: int = 0) -> str:
    """JSON with lists of scalars (keys, flags, query pairs) on one line, so
    each query answer is one line of a diff."""
    def scalar(v: Any) -> bool:
        return not isinstance(v, (dict, list))

    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dump(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(value, list) and not all(scalar(v) for v in value):
        items = [pad + dump(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead")
    ap.add_argument("--out", default=os.path.join(HERE, "cases.json"))
    args = ap.parse_args()
    text = render()
    if args.check:
        with open(args.out, encoding="utf-8") as fh:
            old = fh.read()
        if old != text:
            print(f"{args.out} is stale: run tests/conformance/generate.py and commit it "
                  f"(library {bloomkit.library_path()})", file=sys.stderr)
            return 1
        print(f"{args.out} equals a fresh generation ({len(json.loads(text)['cases'])} cases)")
        return 0
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
