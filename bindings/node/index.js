// SPDX-License-Identifier: Apache-2.0
'use strict';
/**
 * bloomkit: Bloom filters for Node.js over the bloom C library.
 * @module bloomkit
 */
const native = require('./lib/native');
const { BloomError, Status } = require('./lib/errors');
const { Filter } = require('./lib/filter');
const { u64 } = require('./lib/options');
const { HASHES } = require('./lib/constants');
const { KIND_LIST, KINDS, kindCaps } = require('./lib/kinds');

/**
 * m (bits) and k (hashes) for n keys at false-positive rate p, as a classic
 * filter is sized.
 * @param {number|bigint} n @param {number} p
 * @returns {{bits: number, hashes: number}}
 */
function optimalParams(n, p) {
  if (typeof p !== 'number') throw new TypeError('p must be a number');
  return native.optimalParams(u64('n', n, 0n), p);
}

/**
 * The classic filter's false-positive rate after n keys in m bits with k
 * hashes (NaN when bits or hashes is 0).
 * @param {number|bigint} n @param {number|bigint} bits @param {number} hashes @returns {number}
 */
function expectedFpRate(n, bits, hashes) {
  if (!Number.isInteger(hashes) || hashes < 0 || hashes > 0xffffffff) throw new RangeError('hashes must be an integer >= 0');
  return native.expectedFpRate(u64('n', n, 0n), u64('bits', bits, 0n), hashes);
}

/** The loaded C library: version, versionNumber, builtFor, file, struct sizes, hasAdvance. */
const library = Object.freeze(native.library());

module.exports = {
  Filter,
  BloomError,
  Status,
  optimalParams,
  expectedFpRate,
  library,
  /** "0.3.0": the loaded library's version. */
  version: library.version,
  /** The loaded library's kind names ("classic", ...). */
  kinds: Object.freeze(Object.keys(KINDS)),
  /** Each kind's name, bloom_kind number and capabilities. */
  kindList: KIND_LIST,
  kindCaps,
  hashes: Object.freeze(Object.keys(HASHES)),
};
