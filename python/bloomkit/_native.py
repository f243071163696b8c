# SPDX-License-Identifier: Apache-2.0
"""The C API as ctypes sees it: struct layouts and one prototype per function.

The structs and constants come from _layout.py, which
scripts/gen_bindings_layout.py writes from bloom.h. Every function the
package calls is declared here with its ``argtypes`` and ``restype``; a
missing ``restype`` would make ctypes truncate returned pointers to a C
``int``. Nothing outside this module touches ``ctypes.CDLL``.
"""

from __future__ import annotations

import ctypes
from ctypes import (
    POINTER,
    c_char_p,
    c_double,
    c_int,
    c_size_t,
    c_uint,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import NamedTuple, Optional, Tuple

from . import _locate
from ._layout import (  # noqa: F401 (the package reads these through this module)
    CAP_NAMES,
    FLAG_CONCURRENT,
    FLAG_PLAIN_DOUBLE_HASHING,
    FLAG_SPLIT_BLOCK,
    STATUS_INVALID_ARG,
    Info,
    Options,
)


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
    "bloom_get_info": (_status, [Handle, POINTER(Info)]),
    "bloom_info_size": (c_size_t, []),
    "bloom_optimal_params": (_status, [c_uint64, c_double, POINTER(c_uint64), POINTER(c_uint32)]),
    "bloom_expected_fp_rate": (c_double, [c_uint64, c_uint64, c_uint32]),
    "bloom_strerror": (c_char_p, [c_int]),
    "bloom_last_error": (c_char_p, []),
    "bloom_kind_name": (c_char_p, [c_int]),
    "bloom_hash_name": (c_char_p, [c_int]),
    "bloom_kind_from_name": (c_int, [c_char_p]),
    "bloom_kind_caps": (c_uint, [c_int]),
    "bloom_kind_count": (c_int, []),
    "bloom_kind_at": (c_int, [c_int]),
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


class KindInfo(NamedTuple):
    """A kind the loaded library has: its name, its bloom_kind number and
    what it can do (capability names such as "merge", "remove", "grows")."""

    name: str
    code: int
    caps: frozenset


def caps_of(code: int) -> frozenset:
    """The names of the capabilities bloom_kind_caps reports for a kind
    (empty for an unknown one). A bit this package has no name for (a
    library newer than the package) appears as its hex value, "0x100"."""
    bits = lib.bloom_kind_caps(code)
    names = [name for bit, name in CAP_NAMES.items() if bits & bit]
    unknown = bits & ~sum(CAP_NAMES)
    names += [hex(1 << i) for i in range(32) if unknown >> i & 1]
    return frozenset(names)


def kinds() -> Tuple[KindInfo, ...]:
    """Every kind of the loaded library, in bloom_kind order, as the library
    lists them (bloom_kind_count / bloom_kind_at)."""
    out = []
    for i in range(lib.bloom_kind_count()):
        code = lib.bloom_kind_at(i)
        out.append(KindInfo(text(lib.bloom_kind_name(code)), code, caps_of(code)))
    return tuple(out)
