// SPDX-License-Identifier: Apache-2.0
'use strict';
// FilterOptions (camelCase, documented in index.d.ts) -> the plain object
// src/options.c reads. Types and ranges JS can see are checked here with
// TypeError/RangeError; the rest (e.g. fpRate in (0,1), counterBits 4 or 8)
// is the C library's to refuse, as a BloomError with its message.
const native = require('./native');

/** Kind names and their pinned bloom_kind values (window = 6: see README). */
const KINDS = Object.freeze({ classic: 1, partitioned: 2, blocked: 3, counting: 4, scalable: 5, window: 6 });
/** Hash names and their pinned bloom_hash values. */
const HASHES = Object.freeze({ xxh3: 1, murmur3: 2, fnv1a: 3, redisbloom: 4 });
const FLAG_CONCURRENT = 0x1;
const FLAG_PLAIN_DOUBLE_HASHING = 0x2;
const FLAG_SPLIT_BLOCK = 0x4;
const MAX_U64 = (1n << 64n) - 1n;

const DEFAULTS = native.optionsDefaults();
const KNOWN = new Set(['kind', 'capacity', 'fpRate', 'hash', 'seed', 'concurrent', 'plainDoubleHashing', 'splitBlock',
  'bits', 'hashes', 'growth', 'tightening', 'counterBits', 'windowMs']);

function u64(name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative safe integer (or a BigInt), got ${value}`);
    }
    return BigInt(value);
  }
  if (typeof value === 'bigint') {
    if (value < 0n || value > MAX_U64) throw new RangeError(`${name} must fit in 64 unsigned bits`);
    return value;
  }
  throw new TypeError(`${name} must be a number or a BigInt`);
}

function u32(name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new RangeError(`${name} must be an integer in [0, 2^32), got ${String(value)}`);
  }
  return value;
}

function real(name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  return value;
}

function code(table, what, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) {
    throw new RangeError(`unknown ${what} ${JSON.stringify(value)}; expected one of ${Object.keys(table).join(', ')}`);
  }
  return table[value];
}

/**
 * @param {import('../index').FilterOptions} [options]
 * @returns {object} the members of bloomkit_options (src/bloom_next.h)
 */
function toNative(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) throw new TypeError(`unknown option ${JSON.stringify(key)}`);
  }
  const flags = (options.concurrent ? FLAG_CONCURRENT : 0) |
    (options.plainDoubleHashing ? FLAG_PLAIN_DOUBLE_HASHING : 0) |
    (options.splitBlock ? FLAG_SPLIT_BLOCK : 0);
  return {
    kind: code(KINDS, 'kind', options.kind, DEFAULTS.kind),
    capacity: u64('capacity', options.capacity, DEFAULTS.capacity),
    fp_rate: real('fpRate', options.fpRate, DEFAULTS.fp_rate),
    hash: code(HASHES, 'hash', options.hash, DEFAULTS.hash),
    seed: u64('seed', options.seed, DEFAULTS.seed),
    flags,
    bits: u64('bits', options.bits, DEFAULTS.bits),
    hashes: u32('hashes', options.hashes, DEFAULTS.hashes),
    growth: real('growth', options.growth, DEFAULTS.growth),
    tightening: real('tightening', options.tightening, DEFAULTS.tightening),
    counter_bits: u32('counterBits', options.counterBits, DEFAULTS.counter_bits),
    window_ms: u64('windowMs', options.windowMs, DEFAULTS.window_ms),
  };
}

module.exports = { toNative, KINDS, HASHES, u64 };
