# SPDX-License-Identifier: Apache-2.0
"""FilterInfo: what ``bloom_get_info`` reports, as a frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import _native


@dataclass(frozen=True)
class FilterInfo:
    """A snapshot of a filter's parameters and state.

    Attributes:
        kind: "classic", "partitioned", "blocked", "counting", "scalable" or
            "window".
        hash: "xxh3", "murmur3", "fnv1a" or "redisbloom".
        seed: the hash seed (part of the filter's identity).
        hashes: k, probes per key (scalable: of the newest stage).
        bits: m, bits or counters (scalable: all stages).
        bytes: memory of the bit/counter arrays.
        capacity: n the filter was sized for (scalable: total of stages).
        fp_rate: p the filter was sized for (0.0 when made from bits/hashes).
        keys_added: successful adds; duplicates count again.
        estimated_keys: distinct keys estimated from the fill (Swamidass-Baldi);
            ``inf`` once every bit is set.
        fill_ratio: fraction of bits (counters) set.
        expected_fp_rate: false-positive rate at the current fill.
        stages: scalable: number of stages; 1 for other kinds.
        counter_bits: counting: 4 or 8; 1 for other kinds.
        growth, tightening: scalable parameters; 0.0 for other kinds.
        concurrent: created with concurrent adds allowed.
        plain_double_hashing: probes by plain Kirsch-Mitzenmacher hashing.
        split_block: a blocked filter of 32-byte split blocks (k = 8).
        read_only: a mapped filter (``Filter.map``).
        window_ms, window_k, window_l, slice_bits, generation_capacity,
            generation, generation_keys, generation_ms, clock_ms,
            generation_start_ms: the window
            kind's shape and state (bloom.h, BLOOM_KIND_WINDOW); 0 for
            other kinds.
        format_version: (major, minor) of the file format ``save`` writes for
            this filter: (1, 1) for blocked filters created since format 1.1,
            (1, 2) for filters created since format 1.2 with mixed probes
            (small or low-p ones, m * k * 2^-k < 4000, and every scalable
            one), (1, 0) otherwise; filters merge only when these match.
            None with a library older than 0.2.0, which does not report it.
    """

    kind: str
    hash: str
    seed: int
    hashes: int
    bits: int
    bytes: int
    capacity: int
    fp_rate: float
    keys_added: int
    estimated_keys: float
    fill_ratio: float
    expected_fp_rate: float
    stages: int
    counter_bits: int
    growth: float
    tightening: float
    concurrent: bool
    plain_double_hashing: bool
    read_only: bool
    format_version: Optional[tuple[int, int]]
    window_ms: int = 0
    window_k: int = 0
    window_l: int = 0
    slice_bits: int = 0
    generation_capacity: int = 0
    generation: int = 0
    generation_keys: int = 0
    generation_ms: int = 0
    clock_ms: int = 0
    generation_start_ms: int = 0
    split_block: bool = False

    @property
    def bits_per_key(self) -> float:
        """m / capacity: the memory spent per expected key."""
        return self.bits / self.capacity if self.capacity else float("nan")

    @classmethod
    def _from_native(cls, raw: _native.Info) -> "FilterInfo":
        lib = _native.lib
        return cls(
            kind=_native.text(lib.bloom_kind_name(raw.kind)),
            hash=_native.text(lib.bloom_hash_name(raw.hash)),
            seed=raw.seed,
            hashes=raw.hashes,
            bits=raw.bits,
            bytes=raw.bytes,
            capacity=raw.capacity,
            fp_rate=raw.fp_rate,
            keys_added=raw.keys_added,
            estimated_keys=raw.estimated_keys,
            fill_ratio=raw.fill_ratio,
            expected_fp_rate=raw.expected_fp_rate,
            stages=raw.stages,
            counter_bits=raw.counter_bits,
            growth=raw.growth,
            tightening=raw.tightening,
            concurrent=bool(raw.flags & _native.FLAG_CONCURRENT),
            plain_double_hashing=bool(raw.flags & _native.FLAG_PLAIN_DOUBLE_HASHING),
            read_only=bool(raw.read_only),
            format_version=(raw.format_major, raw.format_minor)
            if lib.bloom_version_number() >= 200
            else None,
            window_ms=raw.window_ms,
            window_k=raw.window_k,
            window_l=raw.window_l,
            slice_bits=raw.slice_bits,
            generation_capacity=raw.generation_capacity,
            generation=raw.generation,
            generation_keys=raw.generation_keys,
            generation_ms=raw.generation_ms,
            clock_ms=raw.clock_ms,
            generation_start_ms=raw.generation_start_ms,
            split_block=bool(raw.flags & _native.FLAG_SPLIT_BLOCK),
        )
