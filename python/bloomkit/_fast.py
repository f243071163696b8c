# SPDX-License-Identifier: Apache-2.0
"""Which implementation Filter's per-key calls use: the C extension
``bloomkit._cext`` when it can be loaded, else ctypes (``_pure.PureCore``).

Where the extension is looked for (the first that exists is used):

1. ``$BLOOMKIT_CEXT``: the full path of the extension file.
2. ``bloomkit/_cext.abi3.so`` beside this package (pip, ``cmake --install``).
3. The files ``_paths.py`` names as ``CEXT_FILES`` (a source checkout: the
   build tree's extension, written when CMake configures).

``BLOOMKIT_PURE=1`` skips the extension. An extension that exists but does
not load falls back to ctypes too, keeping the reason in ``cext_error``.
The extension calls the library ctypes loaded (``bind()`` passes it the
function addresses), so both paths always use the same libbloomfilter.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import List, Optional

from . import _keys, _native, _status
from ._pure import PureCore

# The functions the extension calls (python/cext/module.c, bind()).
_BOUND = ("bloom_add", "bloom_query", "bloom_test_and_add", "bloom_remove", "bloom_add_batch",
          "bloom_query_batch")

cext_error: Optional[str] = None  # why the extension is not used, if it is not


def _candidates() -> List[str]:
    env = os.environ.get("BLOOMKIT_CEXT")
    if env:
        return [env]
    here = Path(__file__).resolve().parent
    found = [str(p) for p in sorted(here.glob("_cext.*"))
             if any(str(p).endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES)]
    try:
        from . import _paths  # type: ignore[attr-defined]

        found += [f for f in getattr(_paths, "CEXT_FILES", []) if os.path.isfile(f)]
    except ImportError:
        pass
    return found


def _import(path: str) -> ModuleType:
    loader = importlib.machinery.ExtensionFileLoader(f"{__package__}._cext", path)
    spec = importlib.util.spec_from_file_location(f"{__package__}._cext", path, loader=loader)
    if spec is None:
        raise ImportError(f"not an extension module: {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _address_of(handle: "ctypes._Pointer") -> int:
    # Read the pointer's value in place: ctypes.cast(handle, c_void_p) would
    # store the handle in its own _objects, a cycle that keeps the filter
    # alive after close() until the garbage collector runs.
    return ctypes.c_void_p.from_address(ctypes.addressof(handle)).value or 0


def _load() -> Optional[ModuleType]:
    global cext_error
    if os.environ.get("BLOOMKIT_PURE", "") not in ("", "0"):
        cext_error = "BLOOMKIT_PURE is set"
        return None
    candidates = _candidates()
    if not candidates:
        cext_error = "no bloomkit._cext was built or installed"
        return None
    errors = []
    for path in candidates:
        try:
            module = _import(path)
            table = {name: ctypes.cast(getattr(_native.lib, name), ctypes.c_void_p).value
                     for name in _BOUND}
            module.bind(table, _address_of, _status.raise_status, _keys.to_bytes)
            return module
        except Exception as e:  # a broken or foreign file: fall back, say why
            errors.append(f"{path}: {e}")
    cext_error = "; ".join(errors)
    return None


cext = _load()

#: The base class of Filter: the C one when the extension loaded.
Core: type = cext.Core if cext is not None else PureCore

#: "cext" or "ctypes": how add, ``in``, test_and_add, remove, add_many and
#: contains_many reach the library (bloomkit.implementation).
implementation = "cext" if cext is not None else "ctypes"
