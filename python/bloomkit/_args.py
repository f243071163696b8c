# SPDX-License-Identifier: Apache-2.0
"""Checking the numbers callers pass, the same way in every function: a
wrong type is a TypeError, a value out of range a BloomInvalidArgumentError
(also a ValueError), as the C library would say."""

from __future__ import annotations

import decimal
import numbers
from typing import Optional

from . import _native
from .errors import BloomError, error_for


def invalid(message: str, operation: str) -> BloomError:
    """A BloomInvalidArgumentError for a value refused on the Python side."""
    status = _native.STATUS_INVALID_ARG
    return error_for(status, _native.text(_native.lib.bloom_strerror(status)), message, operation)


def count(value: object, name: str, operation: str, bits: Optional[int] = 64) -> Optional[int]:
    """A non-negative integer (int or numpy integers; not bool, float or
    str), below 2^bits unless bits is None; None stays None (the library's
    default)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0 or (bits is not None and value >= 1 << bits):
        what = f"an int in [0, 2^{bits})" if bits is not None else "a non-negative int"
        raise invalid(f"{name} must be {what}, got {value}", operation)
    return int(value)


def real(value: object, name: str) -> float:
    """A float parameter: any real number (int, float, Fraction, Decimal,
    numpy floats), not str or bool."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, decimal.Decimal)):
        raise TypeError(f"{name} must be a real number, not {type(value).__name__}")
    return float(value)
