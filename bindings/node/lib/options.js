// SPDX-License-Identifier: Apache-2.0
'use strict';
// FilterOptions (camelCase, documented in index.d.ts) -> the plain object
// src/options.c reads. Types and ranges JS can see are checked here with
// TypeError/RangeError; the rest (e.g. fpRate in (0,1), counterBits 4 or 8)
// is the C library's to refuse, as a BloomError with its message.
const native = require('./native');
const { HASHES, FLAGS } = require('./constants');
const { KINDS } = require('./kinds');

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
 * @returns {object} the members of bloom_options, camelCase (src/options.c)
 */
function toNative(options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) throw new TypeError(`unknown option ${JSON.stringify(key)}`);
  }
  const flags = (options.concurrent ? FLAGS.CONCURRENT : 0) |
    (options.plainDoubleHashing ? FLAGS.PLAIN_DOUBLE_HASHING : 0) |
    (options.splitBlock ? FLAGS.SPLIT_BLOCK : 0);
  return {
    kind: code(KINDS, 'kind', options.kind, DEFAULTS.kind),
    capacity: u64('capacity', options.capacity, DEFAULTS.capacity),
    fpRate: real('fpRate', options.fpRate, DEFAULTS.fpRate),
    hash: code(HASHES, 'hash', options.hash, DEFAULTS.hash),
    seed: u64('seed', options.seed, DEFAULTS.seed),
    flags,
    bits: u64('bits', options.bits, DEFAULTS.bits),
    hashes: u32('hashes', options.hashes, DEFAULTS.hashes),
    growth: real('growth', options.growth, DEFAULTS.growth),
    tightening: real('tightening', options.tightening, DEFAULTS.tightening),
    counterBits: u32('counterBits', options.counterBits, DEFAULTS.counterBits),
    windowMs: u64('windowMs', options.windowMs, DEFAULTS.windowMs),
  };
}

module.exports = { toNative, u64 };
