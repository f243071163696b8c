# SPDX-License-Identifier: Apache-2.0
"""Turning a negative ``bloom_status`` into the package's exception, the
same way on both paths (the C extension calls :func:`raise_status`)."""

from __future__ import annotations

from typing import NoReturn, Optional

from . import _native
from .errors import error_for

_lib = _native.lib


def check(status: int, operation: str, path: Optional[str] = None) -> int:
    """Raise the BloomError for a negative status; return the value otherwise."""
    if status < 0:
        raise_status(status, operation, path)
    return status


def raise_status(status: int, operation: str, path: Optional[str] = None) -> NoReturn:
    """Raise the BloomError for ``status``, with the library's message for
    the call that just failed in this thread (``bloom_last_error``)."""
    message = _native.text(_lib.bloom_last_error())
    description = _native.text(_lib.bloom_strerror(status))
    raise error_for(status, description, message, operation, path)
