# SPDX-License-Identifier: Apache-2.0
"""bloomkit: Bloom filters from Python, over the C library libbloomfilter.

Standard library only: ctypes, plus the optional C extension bloomkit._cext
for the per-key calls (``bloomkit.implementation`` says which is in use;
``_fast.py``). The shared library is found through $BLOOM_LIBRARY, next to
this package (pip, ``cmake --install``), in the build tree of a source
checkout, or by the dynamic loader (see ``_locate.py``).

>>> import bloomkit
>>> f = bloomkit.Filter(capacity=10_000, fp_rate=0.001)
>>> f.add("a")
>>> "a" in f
True
"""

from .errors import (
    BloomBufferTooSmallError,
    BloomChecksumError,
    BloomError,
    BloomFileNotFoundError,
    BloomFormatError,
    BloomIncompatibleError,
    BloomInvalidArgumentError,
    BloomIOError,
    BloomMemoryError,
    BloomNotPresentError,
    BloomOverflowError,
    BloomUnsupportedError,
    BloomVersionError,
)
from ._fast import implementation
from ._native import KindInfo, kinds
from .filter import Filter
from .info import FilterInfo
from .params import Params, expected_fp_rate, library_path, optimal_params, version, version_number

__version__ = version()

__all__ = [
    "Filter",
    "FilterInfo",
    "Params",
    "optimal_params",
    "expected_fp_rate",
    "version",
    "version_number",
    "library_path",
    "implementation",
    "kinds",
    "KindInfo",
    "BloomError",
    "BloomInvalidArgumentError",
    "BloomMemoryError",
    "BloomIOError",
    "BloomFileNotFoundError",
    "BloomFormatError",
    "BloomChecksumError",
    "BloomVersionError",
    "BloomUnsupportedError",
    "BloomIncompatibleError",
    "BloomOverflowError",
    "BloomBufferTooSmallError",
    "BloomNotPresentError",
]
