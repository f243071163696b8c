#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Three common uses of a Bloom filter, from Python (what each is: see
use_cases.c). Run with the package importable: PYTHONPATH=python, or after
`cmake --install`."""

import os
import sys
import tempfile

import bloomkit


def main(directory: str) -> None:
    # 1. "Is the key in this data file?": the filter saved beside the data
    #    file, mapped, answers before any read of the file.
    path = os.path.join(directory, "use_cases_py.data.bloom")
    data = bloomkit.Filter(capacity=10000, fp_rate=0.01)
    data.add_many(f"row{i}" for i in range(10000))
    data.save(path)
    with bloomkit.Filter.map(path) as sstable:
        answers = sstable.contains_many(f"row{i}" for i in range(5000, 25000))
    found = sum(answers[:5000])
    print(f"precheck: 20000 lookups, {sum(answers)} data-file reads, {found} of 5000 present rows found")
    os.remove(path)

    # 2. Join pre-filter: only clicks whose user may exist are shuffled.
    users = bloomkit.Filter(capacity=1000, fp_rate=0.01)
    users.add_many(f"user{i * 7}" for i in range(1000))
    clicks = [i % 20000 for i in range(50000)]
    keep = [u for u, maybe in zip(clicks, users.contains_many(f"user{u}" for u in clicks)) if maybe]
    joinable = sum(1 for u in keep if u % 7 == 0 and u < 7000)
    print(f"join: 50000 clicks, {len(keep)} shuffled, {joinable} joinable kept")

    # 3. Stream de-duplication: test_and_add is "contains, else add".
    seen = bloomkit.Filter(capacity=100000, fp_rate=0.001)
    ids = list(range(10000)) + [i * 10 for i in range(1000)]
    duplicates = sum(seen.test_and_add(f"msg-{i}") for i in ids)
    print(f"dedup: 11000 messages, {len(ids) - duplicates} delivered, {duplicates} dropped as duplicates")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else tempfile.gettempdir())
