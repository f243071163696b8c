// SPDX-License-Identifier: Apache-2.0
'use strict';
// The kinds the loaded library has and what each can do, as the library
// says (bloom_kind_count/at, bloom_kind_name, bloom_kind_caps): code that
// needs, say, a kind that can remove keys asks kindCaps(kind) for 'remove'
// rather than naming 'counting'.
const native = require('./native');
const { CAPS } = require('./constants');

const KNOWN_CAPS = Object.values(CAPS).reduce((all, bit) => all | bit, 0);

/** @param {number} bits BLOOM_CAP_* bits @returns {string[]} their names */
function capNames(bits) {
  return Object.keys(CAPS).filter((name) => (bits & CAPS[name]) !== 0);
}

/**
 * Every kind of the loaded library, in bloom_kind order: its name, its
 * bloom_kind number, its capabilities by name, and the bits of any this
 * binding has no name for (from a newer library; 0 normally).
 */
const KIND_LIST = Object.freeze(native.kinds().map((k) => Object.freeze({
  name: k.name,
  code: k.code,
  caps: Object.freeze(capNames(k.caps)),
  unknownCaps: k.caps & ~KNOWN_CAPS,
})));

/** Kind names and their bloom_kind numbers. */
const KINDS = Object.freeze(Object.fromEntries(KIND_LIST.map((k) => [k.name, k.code])));

/**
 * @param {string} kind a kind's name
 * @returns {readonly string[]} what it can do ('merge', 'remove', 'grows', ...)
 */
function kindCaps(kind) {
  const k = KIND_LIST.find((entry) => entry.name === kind);
  if (!k) throw new RangeError(`unknown kind ${JSON.stringify(kind)}; expected one of ${Object.keys(KINDS).join(', ')}`);
  return k.caps;
}

module.exports = { KIND_LIST, KINDS, kindCaps, capNames, KNOWN_CAPS };
