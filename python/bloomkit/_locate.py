# SPDX-License-Identifier: Apache-2.0
"""Finding the shared library ``libbloomfilter``.

Search order (the first hit wins):

1. ``$BLOOM_LIBRARY``: the full path of the library file.
2. Next to this package, then the directories ``_paths.py`` names. An
   installed package gets a ``_paths.py`` holding the library directory
   relative to the package (``cmake --install`` writes it); in a source
   checkout, configuring CMake writes one naming the build tree's library.
3. ``<checkout>/build/src``: the README's build directory, for a checkout
   whose ``_paths.py`` is missing.
4. ``ctypes.util.find_library("bloomfilter")``: the dynamic loader's paths,
   when what it finds is ``libbloomfilter.so.1`` (not another major).

The name is ``bloomfilter``, never ``bloom``: Debian's unrelated ``libbloom``
(package libbloom1) would be found under that name and has a different ABI.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from pathlib import Path
from typing import Iterator, List

# The ABI major, the library's SONAME version: a package written against ABI
# 1 must not load libbloomfilter.so.2.
ABI_MAJOR = 1

_PACKAGE_DIR = Path(__file__).resolve().parent


def _file_names() -> List[str]:
    # Only names that carry the ABI major: the unversioned development link
    # (libbloomfilter.so) may point at another major.
    if sys.platform == "darwin":
        return [f"libbloomfilter.{ABI_MAJOR}.dylib"]
    if sys.platform == "win32":
        return ["bloomfilter.dll", "libbloomfilter.dll"]
    return [f"libbloomfilter.so.{ABI_MAJOR}"]


def names_our_abi(found: str) -> bool:
    """Whether a loader name or path (as find_library returns it: the
    SONAME on Linux) is the library of our ABI major."""
    return os.path.basename(found) in _file_names()


def _configured_dirs() -> List[Path]:
    try:
        from . import _paths  # type: ignore[attr-defined]
    except ImportError:
        return []
    dirs = []
    for entry in getattr(_paths, "LIBRARY_DIRS", []):
        p = Path(entry)
        dirs.append(p if p.is_absolute() else (_PACKAGE_DIR / p))
    return dirs


def candidates() -> Iterator[str]:
    """Yield the paths (or loader names) to try, in search order."""
    env = os.environ.get("BLOOM_LIBRARY")
    if env:
        yield env
        return  # an explicit choice is never second-guessed
    dirs = [_PACKAGE_DIR] + _configured_dirs()
    checkout = _PACKAGE_DIR.parent.parent
    if (checkout / "include" / "bloom" / "bloom.h").is_file():  # a source checkout
        dirs.append(checkout / "build" / "src")
    for d in dirs:
        for name in _file_names():
            path = d / name
            if path.is_file():
                yield str(path)
    found = ctypes.util.find_library("bloomfilter")
    if found and names_our_abi(found):
        yield found


def describe_search() -> str:
    """A one-line account of where the library was looked for (for errors)."""
    return (
        "set BLOOM_LIBRARY to the path of libbloomfilter.so.1, install bloom with "
        "`cmake --install`, or build it in <checkout>/build"
    )
