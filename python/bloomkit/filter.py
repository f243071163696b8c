# SPDX-License-Identifier: Apache-2.0
"""Filter: a Bloom filter owned by Python, backed by one ``bloom_filter``."""

from __future__ import annotations

import ctypes
import math
import mmap
import os
import pickle
import time
from typing import Callable, Iterable, List, Optional, SupportsIndex, Tuple, Union

from . import _keys, _native
from ._fast import Core
from ._args import count as _count, real as _real
from ._keys import Key
from ._status import check as _check
from .errors import BloomNotPresentError, error_for
from .info import FilterInfo

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

_lib = _native.lib


def monotonic_ms() -> int:
    """Milliseconds of ``time.monotonic()``: a time window's default clock."""
    return time.monotonic_ns() // 1_000_000


_DEFAULT_CLOCK = monotonic_ms


def _names(name_of) -> str:
    """The library's own names ("'classic', 'partitioned', ..."): kinds and
    hashers are numbered from 1, so the list ends at the first number without
    a name. Read from the library, never a second list here."""
    names = []
    for code in range(1, 256):
        name = name_of(code)
        if name is None:
            break
        names.append(repr(name.decode("ascii")))
    return ", ".join(names)


def _code(kind_or_hash: str, from_name, what: str, choices: str) -> int:
    if not isinstance(kind_or_hash, str):
        raise TypeError(f"{what} must be a str such as {choices}")
    # "classic\0junk" would reach C as "classic": refused like any other bad name.
    code = 0 if "\0" in kind_or_hash else from_name(kind_or_hash.encode("ascii", "replace"))
    if code == 0:
        raise ValueError(f"unknown {what} {kind_or_hash!r}; expected one of {choices}")
    return code


def _fspath(path: PathLike) -> bytes:
    raw = os.fsencode(path)
    if b"\0" in raw:  # C would stop at it and use a shorter name, as open() refuses to
        raise ValueError("embedded null byte in path")
    return raw


def _kind_caps(name: str) -> frozenset:
    """What the library says a kind (by name) can do: "merge", "grows", ..."""
    return _native.caps_of(_native.lib.bloom_kind_from_name(name.encode()))


class Filter(Core):
    """A Bloom filter: a set that may answer "maybe" for keys never added
    (at about the false-positive rate it was sized for) but never answers
    "no" for a key that was added.

    >>> f = Filter(capacity=10_000, fp_rate=0.001)
    >>> f.add("alice")
    >>> "alice" in f, "bob" in f
    (True, False)

    Keys are ``str`` (hashed as UTF-8) or bytes-like. A Filter owns its C
    handle: release it early with :meth:`close` or a ``with`` block; it is
    released anyway when the object is garbage-collected.

    Thread safety follows the C library: queries may run from many threads
    at once; changes need exclusive access, except ``add``/``add_many``/
    ``test_and_add`` on a filter made with ``concurrent=True``.
    """

    # _handle (the ctypes handle that owns the C filter) is Core's: a slot of
    # _pure.PureCore, or a C member of _cext.Core that also keeps the pointer.
    __slots__ = ("_clock", "__weakref__")

    def __init__(
        self,
        capacity: Optional[int] = None,
        fp_rate: Optional[float] = None,
        kind: str = "classic",
        hash: str = "xxh3",
        seed: Optional[int] = 0,
        bits: Optional[int] = None,
        hashes: Optional[int] = None,
        concurrent: bool = False,
        growth: Optional[float] = None,
        tightening: Optional[float] = None,
        counter_bits: Optional[int] = None,
        plain_double_hashing: bool = False,
        split_block: bool = False,
        window_ms: Optional[int] = None,
        window_seconds: Optional[float] = None,
        clock: Optional[Callable[[], int]] = _DEFAULT_CLOCK,
    ) -> None:
        """Create an empty filter.

        Args:
            capacity: n, the expected number of distinct keys (library
                default 1,000,000). Scalable: the first stage's capacity.
            fp_rate: p, the target false-positive rate in (0, 1) (default 0.01).
            kind: "classic", "partitioned", "blocked", "counting" (supports
                :meth:`remove`) or "scalable" (grows past its capacity).
            hash: "xxh3" (default, fastest), "murmur3", "fnv1a", or "redisbloom"
                (RedisBloom's hashing and sizing; classic and scalable only),
                or another library's hashing and sizing: "guava",
                "bits-and-blooms" (classic) or "parquet" (blocked; see
                :meth:`import_from`).
            seed: hash seed (None: 0); filters combine only with equal seeds.
            bits: explicit m instead of sizing from (capacity, fp_rate).
            hashes: explicit k (with ``bits``); default the optimal k.
            concurrent: allow adds from many threads at once.
            growth: scalable: capacity factor per stage (default 2).
            tightening: scalable: error factor per stage (default 0.85).
            counter_bits: counting: 4 (default) or 8.
            plain_double_hashing: probe with h1 + i*h2 instead of the default
                enhanced double hashing.
            split_block: kind="blocked": 32-byte blocks with k = 8, one bit
                per 32-bit word (BLOOM_FLAG_SPLIT_BLOCK): faster single adds
                and queries for more memory (26.3 bits per key at p = 1e-4
                against 22.0; docs/choosing.md).
            window_ms: kind="window": None or 0 = a count window remembering
                the last ``capacity`` insertions; > 0 = a time window of that
                many milliseconds holding at most ``capacity`` insertions.
            window_seconds: the same in seconds (give one of the two).
            clock: a time window's clock, a callable returning milliseconds;
                before each add or query the filter is advanced to it
                (default: :func:`monotonic_ms`). None: call :meth:`advance`
                yourself (a deterministic clock, e.g. event timestamps).

        Raises:
            BloomInvalidArgumentError: a value out of range.
            BloomOverflowError: more than 2^40 bits.
            BloomUnsupportedError: a kind this build does not implement.
        """
        self._handle: Optional[ctypes._Pointer] = None  # so __del__ is safe if we raise
        self._clock: Optional[Callable[[], int]] = None
        opts = _native.default_options()
        opts.kind = _code(kind, _lib.bloom_kind_from_name, "kind", _names(_lib.bloom_kind_name))
        if window_ms is not None and window_seconds is not None:
            raise ValueError("give window_ms or window_seconds, not both")
        if window_seconds is not None:
            seconds = _real(window_seconds, "window_seconds")
            if not seconds >= 0 or math.isinf(seconds):
                raise ValueError("window_seconds must be a finite number >= 0")
            window_ms = math.ceil(seconds * 1000)
        if window_ms is not None:
            window_ms = _count(window_ms, "window_ms", "create")
            if window_ms and kind != "window":
                raise ValueError("window_ms and window_seconds apply to kind='window' only")
            opts.window_ms = min(window_ms, (1 << 64) - 1)
        opts.hash = _code(hash, _lib.bloom_hash_from_name, "hash", _names(_lib.bloom_hash_name))
        # Values past the C fields' range are clamped below; the library
        # then refuses them (2^64 - 1 bits is over its 2^40 limit).
        seed = _count(0 if seed is None else seed, "seed", "create")
        capacity, bits, hashes, counter_bits = (
            _count(value, name, "create", bits=None)
            for name, value in (("capacity", capacity), ("bits", bits), ("hashes", hashes),
                                ("counter_bits", counter_bits)))
        if capacity is not None:
            opts.capacity = min(capacity, (1 << 64) - 1)
        if fp_rate is not None:
            opts.fp_rate = _real(fp_rate, "fp_rate")
        opts.seed = seed
        if bits is not None:
            opts.bits = min(bits, (1 << 64) - 1)
        if hashes is not None:
            opts.hashes = min(hashes, (1 << 32) - 1)
        if growth is not None:
            opts.growth = _real(growth, "growth")
        if tightening is not None:
            opts.tightening = _real(tightening, "tightening")
        if counter_bits is not None:
            opts.counter_bits = min(counter_bits, (1 << 32) - 1)
        opts.flags = (_native.FLAG_CONCURRENT if concurrent else 0) | (
            _native.FLAG_PLAIN_DOUBLE_HASHING if plain_double_hashing else 0) | (
            _native.FLAG_SPLIT_BLOCK if split_block else 0)
        out = _native.Handle()
        _check(_lib.bloom_create(ctypes.byref(opts), ctypes.byref(out)), "create")
        self._handle = out
        if opts.window_ms:
            self.set_clock(clock)

    # -- construction from elsewhere ------------------------------------

    @classmethod
    def _adopt(cls, handle: "ctypes._Pointer") -> "Filter":
        obj = cls.__new__(cls)
        obj._handle = handle
        obj._clock = None
        info = obj.info
        if info.window_ms and not info.read_only:
            obj.set_clock(_DEFAULT_CLOCK)
        return obj

    @classmethod
    def load(cls, path: PathLike) -> "Filter":
        """Read a filter saved by :meth:`save` (any kind).

        Raises:
            BloomFileNotFoundError: no such file (also a FileNotFoundError).
            BloomIOError: unreadable, or not a regular file.
            BloomFormatError: not a bloom file, or inconsistent fields;
                BloomChecksumError / BloomVersionError are subclasses.
        """
        out = _native.Handle()
        raw = _fspath(path)
        _check(_lib.bloom_load(raw, ctypes.byref(out)), "load", os.fsdecode(raw))
        return cls._adopt(out)

    @classmethod
    def map(cls, path: PathLike) -> "Filter":
        """Map a saved file read-only and query it in place (zero copy).

        Adds, :meth:`clear` and in-place set operations on the result raise
        BloomUnsupportedError. Replacing the file with :meth:`save` is safe;
        modifying it in place is not. Raises as :meth:`load`.
        """
        out = _native.Handle()
        raw = _fspath(path)
        _check(_lib.bloom_map(raw, ctypes.byref(out)), "map", os.fsdecode(raw))
        return cls._adopt(out)

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> "Filter":
        """Rebuild a filter from :meth:`to_bytes` output (or a saved file's bytes)."""
        if isinstance(data, str):
            raise TypeError("from_bytes takes bytes-like data (a file image), not str")
        try:
            view = memoryview(data)  # type: ignore[arg-type]
        except TypeError:
            raise TypeError(f"from_bytes takes bytes-like data (a file image), not {type(data).__name__}") \
                from None
        if isinstance(data, bytes) or view.readonly or not view.c_contiguous:
            image = data if isinstance(data, bytes) else view.tobytes()
            return cls._deserialize(image, len(image))
        # A writable buffer (an unpickled image, a bytearray) is read where
        # it lies: the library copies what it keeps.
        with view.cast("B") as flat:
            target = (ctypes.c_char * flat.nbytes).from_buffer(flat)
            try:
                return cls._deserialize(target, flat.nbytes)
            finally:
                del target  # before the view is released

    @classmethod
    def _deserialize(cls, image: object, size: int) -> "Filter":
        out = _native.Handle()
        _check(_lib.bloom_deserialize(image, size, ctypes.byref(out)), "from_bytes")
        return cls._adopt(out)

    @classmethod
    def import_from(cls, format: str, data: Union[bytes, bytearray, memoryview]) -> "Filter":
        """A filter from another library's file: ``format`` is "guava" (Java
        Guava's ``BloomFilter.writeTo``), "bits-and-blooms" (Go
        bits-and-blooms/bloom v3 ``WriteTo``) or "parquet" (a Parquet
        split-block filter with its Thrift header). The filter answers every
        key as that library did; give keys as the bytes that library hashed
        (a Guava string funnel's UTF-8 text, a Guava long as
        ``struct.pack("<q", v)``, a Parquet INT64 the same way). Raises
        BloomFormatError for damaged or foreign data, BloomError otherwise."""
        code = _code(format, _lib.bloom_format_from_name, "format", _names(_lib.bloom_format_name))
        if isinstance(data, str):
            raise TypeError("import_from takes bytes-like data (a filter file's bytes), not str")
        buf = _keys.to_bytes(data)
        out = _native.Handle()
        _check(_lib.bloom_import(code, buf, len(buf), ctypes.byref(out)), "import_from")
        return cls._adopt(out)

    @classmethod
    def import_parquet_column(cls, data: Union[bytes, bytearray, memoryview], column: str,
                              row_group: int = 0) -> "Filter":
        """The Bloom filter of ``column`` (its dotted path) in one row group of
        a whole Parquet file's bytes, as :meth:`import_from` ("parquet") of the
        filter its footer points at. Raises BloomInvalidArgumentError for a
        column or row group the file does not have, BloomUnsupportedError for
        a column without a filter, BloomFormatError for a damaged file."""
        if not isinstance(column, str) or "\0" in column:
            raise TypeError("column must be a str without NUL characters")
        if not isinstance(row_group, int) or not 0 <= row_group < 2**32:
            raise ValueError("row_group must be an int in [0, 2**32)")
        buf = _keys.to_bytes(data)
        out = _native.Handle()
        _check(_lib.bloom_import_parquet_column(buf, len(buf), column.encode("utf-8"), row_group,
                                                ctypes.byref(out)), "import_parquet_column")
        return cls._adopt(out)

    # -- life cycle ------------------------------------------------------

    @property
    def _h(self) -> "ctypes._Pointer":
        if self._handle is None:
            raise ValueError("operation on a closed bloomkit.Filter")
        return self._handle

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has released the filter."""
        return self._handle is None

    def close(self) -> None:
        """Release the filter's memory (or mapping) now. Idempotent.

        If another thread is inside a call on this filter, the memory is
        released when that call returns (the handle is reference-counted,
        _native.Handle); later calls raise ValueError.
        """
        self._handle = None

    def __enter__(self) -> "Filter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def copy(self) -> "Filter":
        """An independent deep copy (of a mapped filter: a writable one)."""
        out = _native.Handle()
        _check(_lib.bloom_clone(self._h, ctypes.byref(out)), "copy")
        copy = _plain_class(type(self))._adopt(out)
        if self._clock is not None:
            copy.set_clock(self._clock)
        return copy

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> "Filter":
        return self.copy()

    def clear(self) -> None:
        """Remove every key, keeping the parameters (scalable: one stage again)."""
        _check(_lib.bloom_clear(self._h), "clear")

    # -- keys ------------------------------------------------------------
    # add, __contains__, test_and_add, remove, add_many and contains_many are
    # Core's: C (_cext) or ctypes (_pure.PureCore), chosen at import (_fast.py);
    # a time window with a clock advances it first (_ClockTicks).

    def _tick(self) -> None:
        """A time window with a clock: advance to the clock's time."""
        if self._clock is not None:
            _check(_lib.bloom_advance(self._h, self._clock()), "advance")

    def advance(self, now_ms: int) -> None:
        """Window filters with a time window: set the clock to ``now_ms``
        (milliseconds); generations older than the window expire. A clock
        that goes backwards counts as no time passing. Filters made with a
        clock advance themselves before each add and query.

        Raises:
            BloomUnsupportedError: a count window, another kind, or a mapped filter.
        """
        now = _count(now_ms, "now_ms", "advance")
        _check(_lib.bloom_advance(self._h, min(now, (1 << 64) - 1)), "advance")

    def set_clock(self, clock: Optional[Callable[[], int]]) -> None:
        """A time window's clock (a callable returning milliseconds), or None
        to advance only by :meth:`advance`."""
        self._clock = clock
        # Per-key calls are Core's (C when _cext is built); only a filter with
        # a clock pays for reading it, through a subclass that ticks first.
        plain = _plain_class(type(self))
        self.__class__ = plain if clock is None else _clocked_class(plain)

    def test_and_add_many(self, keys: Iterable[Key]) -> List[bool]:
        """:meth:`test_and_add` for every key of an iterable, in order, through
        ``bloom_test_and_add_batch`` (a key repeated in the iterable finds its
        earlier copy); a list of "may have been present" answers."""
        self._h  # a closed filter raises even for no keys (no local: see add_many)
        answers: List[bool] = []
        for batch in _keys.batches(keys):
            results = (ctypes.c_uint8 * batch.n)()
            self._tick()
            _check(_lib.bloom_test_and_add_batch(self._h, batch.keys, batch.lens, batch.n, results),
                   "test_and_add_many")
            answers.extend(map(bool, bytes(results)))
        return answers

    def remove(self, key: Key) -> None:
        """Counting filters: remove one occurrence of an added key.

        Raises:
            BloomNotPresentError: the filter shows the key was never added
                (also a KeyError); nothing changes.
            BloomUnsupportedError: not a counting filter.
        """
        b, n = _keys.pair(key)
        _check(_lib.bloom_remove(self._h, b, n), "remove")

    def discard(self, key: Key) -> bool:
        """Counting filters: remove the key if the filter shows it; return
        whether it was removed (False instead of BloomNotPresentError)."""
        try:
            self.remove(key)
        except BloomNotPresentError:
            return False
        return True


    def discard(self, key: Key) -> bool:
        """Counting filters: remove the key if the filter shows it; return
        whether it was removed (False instead of BloomNotPresentError)."""
        try:
            self.remove(key)
        except BloomNotPresentError:
            return False
        return True

    # -- set operations --------------------------------------------------

    def update(self, other: "Filter") -> "Filter":
        """In-place union with a filter of identical parameters; returns self.

        Raises BloomIncompatibleError naming the first parameter that differs.
        """
        _check(_lib.bloom_merge(self._h, _other_handle(other, "update")), "union")
        return self

    def intersection_update(self, other: "Filter") -> "Filter":
        """In-place intersection (bitwise AND); returns self."""
        _check(_lib.bloom_intersect(self._h, _other_handle(other, "intersection_update")), "intersection")
        return self

    def __or__(self, other: object) -> "Filter":
        if not isinstance(other, Filter):
            return NotImplemented
        result = self.copy()
        try:
            return result.update(other)
        except BaseException:
            result.close()
            raise

    def __and__(self, other: object) -> "Filter":
        if not isinstance(other, Filter):
            return NotImplemented
        result = self.copy()
        try:
            return result.intersection_update(other)
        except BaseException:
            result.close()
            raise

    def __ior__(self, other: object) -> "Filter":
        if not isinstance(other, Filter):
            return NotImplemented
        return self.update(other)

    def __iand__(self, other: object) -> "Filter":
        if not isinstance(other, Filter):
            return NotImplemented
        return self.intersection_update(other)

    def union(self, *others: "Filter") -> "Filter":
        """A new filter holding every key of this one and of ``others``
        (``self | a | b``); ``update`` is the in-place form."""
        return self._folded(others, "update")

    def intersection(self, *others: "Filter") -> "Filter":
        """A new filter, the bitwise AND with ``others`` (``self & a & b``):
        every key added to all of them still answers "maybe"."""
        return self._folded(others, "intersection_update")

    def _folded(self, others: Tuple["Filter", ...], in_place: str) -> "Filter":
        """A copy of self with the in-place method ``in_place`` applied with
        each of ``others``; the copy is closed if one of them is refused."""
        result = self.copy()
        try:
            for other in others:
                getattr(result, in_place)(other)
        except BaseException:
            result.close()
            raise
        return result

    def issubset(self, other: "Filter") -> bool:
        """Whether every key added here may also have been added to ``other``.

        A sound "maybe subset": False is certain (some bit, or counter, of
        this filter is missing from ``other``, so some key added here was not
        added there); True means this filter's bits are all set in ``other``,
        which is also true by chance. Filters must be compatible as for
        ``update``. Scalable filters raise BloomUnsupportedError: a key sits
        in the stage open when it was added, so inclusion does not show in
        their bits.
        """
        common = self._intersected(other, "issubset")
        try:
            # Equal payloads (after the 128-byte header, whose keys_added differs)
            # iff self AND other == self, i.e. self's bits are inside other's.
            return common.to_bytes()[_HEADER_BYTES:] == self.to_bytes()[_HEADER_BYTES:]
        finally:
            common.close()

    def issuperset(self, other: "Filter") -> bool:
        """``other.issubset(self)``: every key of ``other`` may be here too."""
        if not isinstance(other, Filter):
            raise TypeError(f"Filter.issuperset takes a bloomkit.Filter, not {type(other).__name__}")
        return other.issubset(self)

    def isdisjoint(self, other: "Filter") -> bool:
        """True when no key can have been added to both: no bit (or
        counter) is set in both filters. Certain when True; False means they
        may share keys (shared bits also arise by chance). Raises as
        :meth:`issubset`."""
        common = self._intersected(other, "isdisjoint")
        try:
            return common.info.fill_ratio == 0.0
        finally:
            common.close()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Filter):
            return NotImplemented
        return self.issubset(other)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Filter):
            return NotImplemented
        return self.issuperset(other)

    def _intersected(self, other: object, method: str) -> "Filter":
        handle = _other_handle(other, method)
        growing = [f.info.kind for f in (self, other) if "grows" in _kind_caps(f.info.kind)]  # type: ignore[union-attr]
        if growing:
            raise _unsupported(f"{method}: {growing[0]} filters grow by stages and place each key in the "
                               "stage open when it was added, so their bits do not show inclusion", method)
        common = self.copy()
        try:
            _check(_lib.bloom_intersect(common._h, handle), method)
        except BaseException:
            common.close()
            raise
        return common

    # -- persistence -----------------------------------------------------

    def save(self, path: PathLike) -> None:
        """Write the filter to ``path``, replacing any file there atomically
        (temporary file, fsync, rename). Raises BloomIOError."""
        raw = _fspath(path)
        _check(_lib.bloom_save(self._h, raw), "save", os.fsdecode(raw))

    def _serialized_size(self) -> int:
        size = ctypes.c_size_t(0)
        _check(_lib.bloom_serialized_size(self._h, ctypes.byref(size)), "serialized_size")
        return size.value

    def _image(self) -> Union[bytearray, memoryview]:
        """The file image, written straight into a new buffer."""
        size = self._serialized_size() or 1
        image = _fresh_buffer(size)
        written = ctypes.c_size_t(0)
        target = (ctypes.c_char * size).from_buffer(image)
        _check(_lib.bloom_serialize(self._h, target, size, ctypes.byref(written)), "to_bytes")
        del target  # a buffer cannot be resized or released while a ctypes view holds it
        if isinstance(image, bytearray):
            del image[written.value:]
            return image
        return memoryview(image)[:written.value]

    def to_bytes(self) -> bytes:
        """The filter's file image (format v1): what :meth:`save` writes."""
        return bytes(self._image())

    def export(self, format: str) -> bytes:
        """This filter in another library's format ("guava", "bits-and-blooms"
        or "parquet"; see :meth:`import_from`): what that library reads. Only
        a filter made with that format's hash (imported, or created with
        ``hash=format``) exports; others raise BloomError (unsupported)."""
        code = _code(format, _lib.bloom_format_from_name, "format", _names(_lib.bloom_format_name))
        size = ctypes.c_size_t(0)
        _check(_lib.bloom_export_size(self._h, code, ctypes.byref(size)), "export")
        buf = ctypes.create_string_buffer(size.value or 1)
        written = ctypes.c_size_t(0)
        _check(_lib.bloom_export(self._h, code, buf, size.value, ctypes.byref(written)), "export")
        return buf.raw[: written.value]

    def __reduce_ex__(self, protocol: SupportsIndex) -> Tuple[Callable[..., "Filter"], tuple]:
        """Pickle as the file image, so filters travel to worker processes.
        With protocol 5 the image is one out-of-band buffer: Dask and
        multiprocessing send it as it is, without copying it into the
        pickle (and it unpickles without a copy of the bytes)."""
        cls = _plain_class(type(self))
        image: object = pickle.PickleBuffer(self._image()) if protocol >= 5 else self.to_bytes()
        return (_restore, (image,) if cls is Filter else (image, cls))

    # -- introspection ---------------------------------------------------

    @property
    def info(self) -> FilterInfo:
        """Parameters and state (costs one pass over the bits)."""
        raw = _native.Info()
        raw.struct_size = ctypes.sizeof(raw)
        _check(_lib.bloom_get_info(self._h, ctypes.byref(raw)), "info")
        return FilterInfo._from_native(raw)

    def __len__(self) -> int:
        """round(estimated distinct keys); once every bit is set (no
        estimate possible) the number of adds, an upper bound."""
        info = self.info
        if math.isfinite(info.estimated_keys):
            return int(round(info.estimated_keys))
        return info.keys_added

    def __bool__(self) -> bool:
        """A filter is always true (``if f:`` tests existence, not emptiness,
        and costs nothing); use ``len(f) == 0`` for emptiness."""
        return True

    def __repr__(self) -> str:
        if self._handle is None:
            return "<bloomkit.Filter closed>"
        i = self.info
        return (f"<bloomkit.Filter kind={i.kind} hash={i.hash} m={i.bits} k={i.hashes} "
                f"capacity={i.capacity} fp_rate={i.fp_rate:g} keys_added={i.keys_added}"
                f"{' read_only' if i.read_only else ''}>")


# The file image's header (docs/FORMAT.md); the payload follows it.
_HEADER_BYTES = 128


def _unsupported(message: str, operation: str) -> BaseException:
    status = -7  # BLOOM_E_UNSUPPORTED
    return error_for(status, _native.text(_lib.bloom_strerror(status)), message, operation)


def _other_handle(other: object, method: str) -> "ctypes._Pointer":
    if not isinstance(other, Filter):
        raise TypeError(f"Filter.{method} takes a bloomkit.Filter, not {type(other).__name__}")
    return other._h


class _ClockTicks:
    """Mixed in before a Filter class when the filter has a clock: each
    per-key call advances a time window to the clock's time first."""

    __slots__ = ()

    def add(self, key: Key) -> None:
        self._tick()
        super().add(key)

    def __contains__(self, key: object) -> bool:
        self._tick()
        return super().__contains__(key)

    def test_and_add(self, key: Key) -> bool:
        self._tick()
        return super().test_and_add(key)

    def add_many(self, keys: Iterable[Key]) -> int:
        self._tick()
        return super().add_many(keys)

    def contains_many(self, keys: Iterable[Key]) -> List[bool]:
        self._tick()
        return super().contains_many(keys)


_CLOCKED: dict = {}


def _clocked_class(cls: type) -> type:
    """cls with _ClockTicks first (made once per class, same name)."""
    clocked = _CLOCKED.get(cls)
    if clocked is None:
        clocked = type(cls.__name__, (_ClockTicks, cls),
                       {"__slots__": (), "__module__": cls.__module__, "__qualname__": cls.__qualname__})
        _CLOCKED[cls] = clocked
    return clocked


def _plain_class(cls: type) -> type:
    """The class a clocked one was made from (cls itself otherwise)."""
    return cls.__mro__[2] if issubclass(cls, _ClockTicks) else cls


# Images from this size up go to a private mapping in transparent huge
# pages (where the kernel has them) instead of a bytearray: writing a fresh
# 50 MB buffer costs one fault and one clear per 2 MiB instead of 512 of
# each, about 3x faster, and the image is written whole anyway.
_HUGE_IMAGE_BYTES = 4 << 20


def _fresh_buffer(size: int) -> Union[bytearray, mmap.mmap]:
    flags = getattr(mmap, "MAP_PRIVATE", None)
    if size < _HUGE_IMAGE_BYTES or flags is None or not hasattr(mmap, "MADV_HUGEPAGE"):
        return bytearray(size)
    buffer = mmap.mmap(-1, size, flags=flags | mmap.MAP_ANONYMOUS)
    buffer.madvise(mmap.MADV_HUGEPAGE)
    return buffer


def _restore(data: bytes, cls: type = Filter) -> Filter:
    """Unpickling: rebuild a Filter (or the subclass it was) from its file image."""
    return cls.from_bytes(data)


__all__ = ["Filter"]
