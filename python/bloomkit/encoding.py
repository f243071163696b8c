# SPDX-License-Identifier: Apache-2.0
"""The bytes a key is hashed as, fixed so that every language agrees.

A Bloom filter hashes bytes, so two programs share a filter only if they
turn a key into the same bytes. ``bloomkit.Filter`` takes ``str`` (UTF-8)
and bytes-like keys as they are. Integers have many possible byte forms
(decimal text, 4 or 8 bytes, either byte order); this module fixes one:

    an integer key is 8 bytes, little-endian two's complement (int64),
    for values in [-2**63, 2**63 - 1]; other values are refused.

So 1 is ``01 00 00 00 00 00 00 00``, -1 is eight ``ff`` bytes, and the
same filter answers the same in C (``int64_t v`` stored with
``memcpy`` after converting to little-endian), Java
(``ByteBuffer.order(LITTLE_ENDIAN).putLong(v)``), Go
(``binary.LittleEndian.PutUint64(b, uint64(v))``) or Rust
(``v.to_le_bytes()``). An int64 column, an int32 column and a Python int
of the same value are the same key; ``bool`` and floats are refused (cast
them to int or str first: 1.0 and 1 are not obviously one key).
docs/distributed.md has the table.
"""

from __future__ import annotations

import numbers
from typing import Optional

INT_BYTES = 8
INT_MIN = -(1 << 63)
INT_MAX = (1 << 63) - 1


def int_key(value: object) -> bytes:
    """The 8 bytes hashed for the integer ``value`` (int64, little-endian).

    >>> int_key(1).hex()
    '0100000000000000'
    >>> int_key(-1).hex()
    'ffffffffffffffff'

    Raises TypeError for bool and non-integers, OverflowError outside int64.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or \
            type(value).__name__ == "bool_":
        raise TypeError(f"int_key takes an integer, not {type(value).__name__}")
    v = int(value)
    if not INT_MIN <= v <= INT_MAX:
        raise OverflowError(f"integer key {v} is outside int64 [-2**63, 2**63 - 1]; "
                            "encode it as str or bytes instead")
    return v.to_bytes(INT_BYTES, "little", signed=True)


def key_bytes(key: object) -> Optional[bytes]:
    """The bytes hashed for one key of a column: str as UTF-8, bytes-like
    as is, integers by :func:`int_key`; None for a missing value (None,
    NaN, pandas' NA and NaT), which is no key.

    Raises TypeError for any other type (float, bool, list...).
    """
    t = type(key)
    if t is str:
        return key.encode("utf-8")  # type: ignore[union-attr]
    if t is bytes:
        return key  # type: ignore[return-value]
    if t is int:
        return int_key(key)
    if key is None:
        return None
    if isinstance(key, (str, bytes)):  # subclasses
        return key.encode("utf-8") if isinstance(key, str) else bytes(key)
    if isinstance(key, numbers.Integral) and not isinstance(key, bool) and type(key).__name__ != "bool_":
        return int_key(key)
    if _is_missing(key):
        return None
    if isinstance(key, (bytearray, memoryview)):
        return memoryview(key).tobytes()
    raise TypeError(f"keys are str, bytes or int (int64), not {t.__name__}; "
                    "cast floats and bools to int or str first")


def _is_missing(value: object) -> bool:
    if isinstance(value, float):
        return value != value  # NaN
    try:
        import pandas
    except ImportError:
        return False
    try:
        return bool(pandas.isna(value))
    except (TypeError, ValueError):
        return False


__all__ = ["INT_BYTES", "INT_MIN", "INT_MAX", "int_key", "key_bytes"]
