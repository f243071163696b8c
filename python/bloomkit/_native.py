# SPDX-License-Identifier: Apache-2.0
"""The C API as ctypes sees it: struct layouts and one prototype per function.

Every function the package calls is declared here with its ``argtypes`` and
``restype``; a missing ``restype`` would make ctypes truncate returned
pointers to a C ``int``. Nothing outside this module touches ``ctypes.CDLL``.
"""

from __future__ import annotations

import ctypes
from ctypes import (
    POINTER,
    c_char_p,
    c_double,
    c_int,
    c_int32,
    c_size_t,
    c_uint,
    c_uint8,
    c_uint16,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Optional

from . import _locate


class Options(ctypes.Structure):
    """``bloom_options`` (include/bloom/bloom.h), member for member."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("kind", c_int32),
        ("capacity", c_uint64),
        ("fp_rate", c_double),
        ("hash", c_int32),
        ("seed", c_uint64),
        ("flags", c_uint32),
        ("bits", c_uint64),
        ("hashes", c_uint32),
        ("growth", c_double),
        ("tightening", c_double),
        ("counter_bits", c_uint32),
        ("window_ms", c_uint64),
    ]


class Info(ctypes.Structure):
    """``bloom_info`` (include/bloom/bloom.h), member for member."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("kind", c_int32),
        ("hash", c_int32),
        ("seed", c_uint64),
        ("flags", c_uint32),
        ("hashes", c_uint32),
        ("bits", c_uint64),
        ("bytes", c_uint64),
        ("capacity", c_uint64),
        ("fp_rate", c_double),
        ("keys_added", c_uint64),
        ("estimated_keys", c_double),
        ("fill_ratio", c_double),
        ("expected_fp_rate", c_double),
        ("stages", c_uint32),
        ("counter_bits", c_uint32),
        ("growth", c_double),
        ("tightening", c_double),
        ("read_only", c_int32),
        ("format_major", c_uint16),
        ("format_minor", c_uint16),
        ("window_ms", c_uint64),
        ("window_k", c_uint32),
        ("window_l", c_uint32),
        ("slice_bits", c_uint64),
        ("generation_capacity", c_uint64),
        ("generation", c_uint64),
        ("generation_keys", c_uint64),
        ("generation_ms", c_uint64),
        ("clock_ms", c_uint64),
        ("generation_start_ms", c_uint64),
    ]


class _FilterStruct(ctypes.Structure):
    """The opaque ``bloom_filter``: only ever handled through a pointer."""


class Handle(POINTER(_FilterStruct)):  # type: ignore[misc]
    """A ``bloom_filter *`` that owns its filter: ``bloom_destroy`` runs when
    the last Python reference to the handle goes, not before.

    A call in flight holds a reference (it is one of the call's arguments),
    so ``Filter.close()`` in one thread while another thread is inside a
    call on the same filter releases the filter when that call returns,
    instead of freeing memory the call is still using. With no call in
    flight, CPython's reference counting releases it at once.
    """

    _type_ = _FilterStruct

    def __del__(self) -> None:
        if self:  # NULL: never filled (a failed create or load)
            try:
                lib.bloom_destroy(self)
            except Exception:  # interpreter shutdown: the module may be half gone
                pass


FLAG_CONCURRENT = 0x1
FLAG_PLAIN_DOUBLE_HASHING = 0x2
FLAG_SPLIT_BLOCK = 0x4
STATUS_OK = 0
STATUS_INVALID_ARG = -1
STATUS_BUFFER_TOO_SMALL = -10

_status = c_int
_handle_out = POINTER(Handle)
_keys = POINTER(c_void_p)
_lens = POINTER(c_size_t)

# name: (restype, argtypes)
PROTOTYPES = {
    "bloom_options_init": (None, [c_void_p]),
    "bloom_options_init_sized": (None, [c_void_p, c_size_t]),
    "bloom_advance": (_status, [Handle, c_uint64]),
    "bloom_test_and_add_batch": (_status, [Handle, _keys, _lens, c_size_t, POINTER(c_uint8)]),
    "bloom_options_size": (c_size_t, []),
    "bloom_create": (_status, [POINTER(Options), _handle_out]),
    "bloom_destroy": (None, [Handle]),
    "bloom_clone": (_status, [Handle, _handle_out]),
    "bloom_clear": (_status, [Handle]),
    "bloom_add": (_status, [Handle, c_char_p, c_size_t]),
    "bloom_query": (c_int, [Handle, c_char_p, c_size_t]),
    "bloom_test_and_add": (c_int, [Handle, c_char_p, c_size_t]),
    "bloom_remove": (_status, [Handle, c_char_p, c_size_t]),
    "bloom_add_batch": (_status, [Handle, _keys, _lens, c_size_t]),
    "bloom_query_batch": (_status, [Handle, _keys, _lens, c_size_t, POINTER(c_uint8)]),
    "bloom_merge": (_status, [Handle, Handle]),
    "bloom_intersect": (_status, [Handle, Handle]),
    "bloom_save": (_status, [Handle, c_char_p]),
    "bloom_load": (_status, [c_char_p, _handle_out]),
    "bloom_map": (_status, [c_char_p, _handle_out]),
    "bloom_serialized_size": (_status, [Handle, POINTER(c_size_t)]),
    "bloom_serialize": (_status, [Handle, c_void_p, c_size_t, POINTER(c_size_t)]),
    "bloom_deserialize": (_status, [c_char_p, c_size_t, _handle_out]),
    "bloom_import": (_status, [c_int, c_char_p, c_size_t, _handle_out]),
    "bloom_export_size": (_status, [Handle, c_int, POINTER(c_size_t)]),
    "bloom_export": (_status, [Handle, c_int, c_void_p, c_size_t, POINTER(c_size_t)]),
    "bloom_format_name": (c_char_p, [c_int]),
    "bloom_format_from_name": (c_int, [c_char_p]),
    "bloom_get_info": (_status, [Handle, POINTER(Info)]),
    "bloom_info_size": (c_size_t, []),
    "bloom_optimal_params": (_status, [c_uint64, c_double, POINTER(c_uint64), POINTER(c_uint32)]),
    "bloom_expected_fp_rate": (c_double, [c_uint64, c_uint64, c_uint32]),
    "bloom_strerror": (c_char_p, [c_int]),
    "bloom_last_error": (c_char_p, []),
    "bloom_kind_name": (c_char_p, [c_int]),
    "bloom_hash_name": (c_char_p, [c_int]),
    "bloom_kind_from_name": (c_int, [c_char_p]),
    "bloom_hash_from_name": (c_int, [c_char_p]),
    "bloom_version_string": (c_char_p, []),
    "bloom_version_number": (c_uint, []),
}


def _load() -> ctypes.CDLL:
    errors = []
    for candidate in _locate.candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as e:
            errors.append(f"{candidate}: {e}")
            continue
        try:
            _declare(lib)
        except AttributeError as e:  # not our library (or too old)
            errors.append(f"{candidate}: {e}")
            continue
        lib._bloom_path = candidate  # type: ignore[attr-defined]
        return lib
    tried = "; ".join(errors) if errors else "no candidate found"
    raise ImportError(f"bloom: cannot load libbloomfilter ({tried}); {_locate.describe_search()}")


def _declare(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


lib = _load()

# The library fills (options_init) and reads (create) whole structs, so their
# layouts must agree with the classes above. A newer library may have appended
# members: it then reads only our struct_size bytes, and options_init gets a
# buffer big enough for its own struct. An older, smaller one is refused.
OPTIONS_SIZE: int = lib.bloom_options_size()
INFO_SIZE: int = lib.bloom_info_size()
if OPTIONS_SIZE < ctypes.sizeof(Options) or INFO_SIZE < ctypes.sizeof(Info):
    raise ImportError(
        f"bloom: struct layouts differ from {getattr(lib, '_bloom_path', 'the library')}: "
        f"bloom_options is {OPTIONS_SIZE} bytes there, {ctypes.sizeof(Options)} here; "
        f"bloom_info is {INFO_SIZE} there, {ctypes.sizeof(Info)} here"
    )


def default_options() -> Options:
    """A ``bloom_options`` filled by ``bloom_options_init`` (the defaults)."""
    buf = ctypes.create_string_buffer(max(OPTIONS_SIZE, ctypes.sizeof(Options)))
    lib.bloom_options_init_sized(buf, len(buf))
    opts = Options.from_buffer_copy(buf.raw[: ctypes.sizeof(Options)])
    opts.struct_size = ctypes.sizeof(Options)
    return opts


def text(value: Optional[bytes]) -> str:
    """A C string from the library as ``str`` ("" for NULL)."""
    return value.decode("utf-8", "replace") if value else ""
