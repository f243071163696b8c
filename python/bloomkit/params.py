# SPDX-License-Identifier: Apache-2.0
"""The sizing math of the C library, for planning before building a filter."""

from __future__ import annotations

import ctypes
from typing import NamedTuple

from . import _native
from ._args import count, real
from .errors import error_for

_lib = _native.lib


class Params(NamedTuple):
    """m (bits) and k (hashes) for a filter."""

    bits: int
    hashes: int


def optimal_params(n: int, p: float) -> Params:
    """m = ceil(n |ln p| / ln^2 2) and k = round((m / n) ln 2) for n keys at
    false-positive rate p (where that m is at most 4096 bits, grown until the
    exact rate meets p): the sizing ``bloomkit.Filter(capacity=n, fp_rate=p)``
    uses for the classic kind.

    Raises BloomInvalidArgumentError (n == 0, p not in (0, 1)) or
    BloomOverflowError (m above 2^40).
    """
    n = count(n, "n", "optimal_params")
    p = real(p, "p")
    bits = ctypes.c_uint64(0)
    hashes = ctypes.c_uint32(0)
    status = _lib.bloom_optimal_params(n, p, ctypes.byref(bits), ctypes.byref(hashes))
    if status < 0:
        raise error_for(status, _native.text(_lib.bloom_strerror(status)),
                        _native.text(_lib.bloom_last_error()), "optimal_params")
    return Params(bits.value, hashes.value)


def expected_fp_rate(n: int, m: int, k: int) -> float:
    """The classic filter's false-positive rate after n distinct keys in m
    bits with k hashes, (1 - e^(-kn/m))^k; NaN when m or k is 0."""
    n = count(n, "n", "expected_fp_rate")
    m = count(m, "m", "expected_fp_rate")
    k = count(k, "k", "expected_fp_rate", bits=32)
    return float(_lib.bloom_expected_fp_rate(n, m, k))


def version() -> str:
    """The loaded library's release version, e.g. "0.1.0"."""
    return _native.text(_lib.bloom_version_string())


def version_number() -> int:
    """MAJOR * 10000 + MINOR * 100 + PATCH of the loaded library."""
    return int(_lib.bloom_version_number())


def library_path() -> str:
    """The file (or loader name) the library was loaded from."""
    return str(getattr(_lib, "_bloom_path", ""))
