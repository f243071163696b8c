# SPDX-License-Identifier: Apache-2.0
"""The conformance suite's key notation, shared by generate.py and the
Python runner: "s:<text>" is the UTF-8 bytes of text, "x:<hex>" raw bytes
(which may hold NUL or invalid UTF-8; "x:" is the empty key)."""

from __future__ import annotations


def decode(key: str) -> bytes:
    """The bytes a conformance key stands for; ValueError for bad notation."""
    if key.startswith("s:"):
        return key[2:].encode("utf-8")
    if key.startswith("x:"):
        return bytes.fromhex(key[2:])
    raise ValueError(f"conformance key {key!r} is neither s:<text> nor x:<hex>")


def text(key: bytes) -> str:
    """The notation for a key: s: when it is UTF-8 without NUL, else x:."""
    try:
        s = key.decode("utf-8")
    except UnicodeDecodeError:
        return "x:" + key.hex()
    return "x:" + key.hex() if "\0" in s else "s:" + s
