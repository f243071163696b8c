# SPDX-License-Identifier: Apache-2.0
"""RedisBloom values built field by field, as an attacker (or a bug) could
send them: DUMP payloads of its type "MBbloom--" and BF.SCANDUMP headers.

A chain is a dict: size, options (NOROUND 1 | FORCE64 4 | NO_SCALING 8),
growth, links; a link: entries, error, hashes, bpe, bits, n2, size, and
optionally data (its bits // 8 bytes; zeros when absent).
"""

import math
import struct

LN2 = 0.693147180559945
LN2_SQUARED = 0.480453013918201
NOROUND, FORCE64, NO_SCALING = 1, 4, 8

# 0x07 (a module value), then the 64-bit id of type "MBbloom--" encoding 4.
_MODULE_PREFIX = bytes.fromhex("07813016e5a289bef80402"[:20])
_RDB_VERSION = b"\x0a\x00"


def crc64(data):
    """Redis's CRC-64 (Jones polynomial, reflected), as DUMP payloads end with."""
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x95AC9329AC4BC9B5 if crc & 1 else 0)
    return crc


def _length(n):
    if n < 1 << 6:
        return bytes([n])
    if n < 1 << 14:
        return bytes([0x40 | (n >> 8), n & 0xFF])
    if n < 1 << 32:
        return b"\x80" + n.to_bytes(4, "big")
    return b"\x81" + n.to_bytes(8, "big")


def _unsigned(n):
    return b"\x02" + _length(n)


def _double(d):
    return b"\x04" + struct.pack("<d", d)


def _string(data):
    return b"\x05" + _length(len(data)) + data


def bpe(error):
    """RedisBloom's bits per entry for an error rate."""
    return abs(math.log(error) / LN2_SQUARED)


def link(entries, error, size=0, bits=None, hashes=None, bpe_value=None, data=None):
    """A link as RedisBloom builds it, with any field overridden."""
    b = bpe(error) if bpe_value is None else bpe_value
    if bits is None:
        bits = max(64, (int(entries * b) + 63) // 64 * 64)
    if hashes is None:
        hashes = math.ceil(LN2 * b)
    return {"entries": entries, "error": error, "hashes": hashes, "bpe": b, "bits": bits, "n2": 0,
            "size": size, "data": data}


def chain(links, growth=2, nonscaling=False, size=None):
    return {"size": sum(l["size"] for l in links) if size is None else size,
            "options": NOROUND | FORCE64 | (NO_SCALING if nonscaling else 0),
            "growth": growth, "links": links}


def _bits(l):
    return l["data"] if l["data"] is not None else bytes(l["bits"] // 8)


def dump_payload(c):
    """The DUMP payload of chain c, as RESTORE takes it."""
    body = _MODULE_PREFIX
    body += _unsigned(c["size"]) + _unsigned(len(c["links"])) + _unsigned(c["options"]) + _unsigned(c["growth"])
    for l in c["links"]:
        body += _unsigned(l["entries"]) + _double(l["error"]) + _unsigned(l["hashes"]) + _double(l["bpe"])
        body += _unsigned(l["bits"]) + _unsigned(l["n2"]) + _string(_bits(l)) + _unsigned(l["size"])
    body += b"\x00" + _RDB_VERSION
    return body + crc64(body).to_bytes(8, "little")


def scandump_header(c):
    """BF.SCANDUMP's first chunk for chain c (RedisBloom's packed header)."""
    h = struct.pack("<QIII", c["size"], len(c["links"]), c["options"], c["growth"])
    for l in c["links"]:
        h += struct.pack("<QQQddIQB", l["bits"] // 8, l["bits"], l["size"], l["error"], l["bpe"], l["hashes"],
                         l["entries"], l["n2"])
    return h


def scandump_stream(c, chunk=1 << 20):
    """The whole BF.SCANDUMP stream of chain c: (iterator, data) pairs."""
    out = [(1, scandump_header(c))]
    bits = b"".join(_bits(l) for l in c["links"])
    for off in range(0, len(bits), chunk):
        part = bits[off:off + chunk]
        out.append((1 + off + len(part), part))
    return out
