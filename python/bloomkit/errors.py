# SPDX-License-Identifier: Apache-2.0
"""Exceptions: one class per ``bloom_status``, all under :class:`BloomError`.

Each also derives from the built-in exception a Python caller would expect
(``ValueError`` for bad arguments, ``OSError`` for I/O, ``KeyError`` for
removing an absent key...), so ``except ValueError`` works as usual.
"""

from __future__ import annotations

import errno as _errno
from typing import Dict, Optional, Type


class BloomError(Exception):
    """A bloom_* call failed.

    Attributes:
        status: the negative ``bloom_status`` the C function returned.
        description: ``bloom_strerror(status)``, e.g. ``"checksum mismatch"``.
        message: the library's detail, ``bloom_last_error()`` right after the call.
        operation: what was being done, e.g. ``"load"``.
    """

    def __init__(self, status: int, description: str, message: str, operation: str = "") -> None:
        super().__init__(status, description, message)
        self.status = status
        self.description = description
        self.message = message
        self.operation = operation

    def __str__(self) -> str:
        # The library's message already names the function ("bloom_load: ...").
        if self.message:
            return f"{self.message} ({self.description}, status {self.status})"
        head = f"{self.operation}: " if self.operation else ""
        return f"{head}{self.description} (status {self.status})"


class BloomInvalidArgumentError(BloomError, ValueError):
    """BLOOM_E_INVALID_ARG: a value out of range (p not in (0, 1), k > 64...)."""


class BloomMemoryError(BloomError, MemoryError):
    """BLOOM_E_NOMEM: an allocation failed."""


class BloomIOError(BloomError, OSError):
    """BLOOM_E_IO: a file could not be opened, read, written or renamed."""


class BloomFileNotFoundError(BloomIOError, FileNotFoundError):
    """BLOOM_E_IO for a path that does not exist."""


class BloomFormatError(BloomError, ValueError):
    """BLOOM_E_FORMAT: not a bloom filter, or fields that disagree."""


class BloomChecksumError(BloomFormatError):
    """BLOOM_E_CHECKSUM: the header or payload checksum does not match."""


class BloomVersionError(BloomFormatError):
    """BLOOM_E_VERSION: written by a newer, incompatible format version."""


class BloomUnsupportedError(BloomError):
    """BLOOM_E_UNSUPPORTED: the operation does not apply to this filter."""


class BloomIncompatibleError(BloomError, ValueError):
    """BLOOM_E_INCOMPATIBLE: two filters whose parameters differ."""


class BloomOverflowError(BloomError, OverflowError):
    """BLOOM_E_OVERFLOW: a size exceeds the library's limits."""


class BloomBufferTooSmallError(BloomError):
    """BLOOM_E_BUFFER_TOO_SMALL: an output buffer was too small."""


class BloomNotPresentError(BloomError, KeyError):
    """BLOOM_E_NOT_PRESENT: removing a key the filter shows was never added."""

    def __str__(self) -> str:  # KeyError would print repr(args)
        return BloomError.__str__(self)


_BY_STATUS: Dict[int, Type[BloomError]] = {
    -1: BloomInvalidArgumentError,
    -2: BloomMemoryError,
    -3: BloomIOError,
    -4: BloomFormatError,
    -5: BloomChecksumError,
    -6: BloomVersionError,
    -7: BloomUnsupportedError,
    -8: BloomIncompatibleError,
    -9: BloomOverflowError,
    -10: BloomBufferTooSmallError,
    -11: BloomNotPresentError,
}


def error_for(
    status: int, description: str, message: str, operation: str = "", path: Optional[str] = None
) -> BloomError:
    """The exception for a failed call (not raised here)."""
    cls = _BY_STATUS.get(status, BloomError)
    if cls is BloomIOError and path is not None and operation in ("load", "map"):
        import os

        try:
            os.stat(path)  # follows symlinks: a dangling one is "not found" too
        except FileNotFoundError:
            cls = BloomFileNotFoundError
        except OSError:
            pass
    err = cls(status, description, message, operation)
    if isinstance(err, OSError):
        err.filename = path
        err.errno = _errno.ENOENT if cls is BloomFileNotFoundError else None
    return err
