# SPDX-License-Identifier: Apache-2.0
"""Turning Python keys into the (pointer, length) pairs the C API takes.

A key is a ``str`` (hashed as its UTF-8 bytes, so "é" and b"\\xc3\\xa9" are
the same key) or any bytes-like object (bytes, bytearray, memoryview, array...),
hashed as its raw bytes in C order.
"""

from __future__ import annotations

import array
import ctypes
import itertools
from typing import Iterable, Iterator, List, Tuple, Union

Key = Union[str, bytes, bytearray, memoryview]

# Batches are passed to the library in chunks of this many keys, so a
# generator of any length is handled in bounded memory (about 16 bytes of
# pointer + length per key plus the keys themselves, ~1 MiB for short keys).
CHUNK = 1 << 16


def to_bytes(key: object) -> bytes:
    """The bytes hashed for ``key``; TypeError for anything else."""
    if isinstance(key, bytes):
        return key
    if isinstance(key, str):
        return key.encode("utf-8")
    try:
        view = memoryview(key)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"bloom keys are str or bytes-like, not {type(key).__name__}") from None
    return view.tobytes()


# array typecodes as wide as size_t and as a pointer: the pointer and length
# arrays are built by the array module (C loops) and handed to ctypes without
# a copy, much faster than filling ctypes arrays element by element from a
# Python loop.
_WORD = next(c for c in "QLI" if array.array(c).itemsize == ctypes.sizeof(ctypes.c_size_t))
assert ctypes.sizeof(ctypes.c_void_p) == ctypes.sizeof(ctypes.c_size_t)


class Batch:
    """``n`` keys laid out for bloom_add_batch / bloom_query_batch.

    The keys are joined into one buffer; ``keys[i]`` points into it. The
    buffer and arrays live as long as this object, i.e. across the C call.
    """

    __slots__ = ("n", "keys", "lens", "_buffer", "_ptr_words", "_len_words")

    def __init__(self, keys: List[bytes]) -> None:
        self.n = len(keys)
        joined = b"".join(keys)
        self._buffer = ctypes.create_string_buffer(joined, len(joined) or 1)
        self._len_words = array.array(_WORD, map(len, keys))
        # Start addresses: base, base + len0, base + len0 + len1, ...
        base = ctypes.addressof(self._buffer)
        self._ptr_words = array.array(_WORD, itertools.accumulate(self._len_words[:-1], initial=base))
        self.keys = (ctypes.c_void_p * self.n).from_buffer(self._ptr_words)
        self.lens = (ctypes.c_size_t * self.n).from_buffer(self._len_words)


def batches(keys: Iterable[Key]) -> Iterator[Batch]:
    """Split an iterable of keys into Batch objects of at most CHUNK keys."""
    if isinstance(keys, (str, bytes, bytearray, memoryview)):
        raise TypeError("add_many/contains_many take an iterable of keys, not a single key")
    it = iter(keys)
    while True:
        # str and bytes inline (the common cases); to_bytes for the rest.
        chunk = [k.encode("utf-8") if type(k) is str else k if type(k) is bytes else to_bytes(k)
                 for k in itertools.islice(it, CHUNK)]
        if not chunk:
            return
        yield Batch(chunk)


def pair(key: Key) -> Tuple[bytes, int]:
    """(bytes, length) for a single-key call."""
    b = to_bytes(key)
    return b, len(b)
