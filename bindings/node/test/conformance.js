// SPDX-License-Identifier: Apache-2.0
'use strict';
// Reading the conformance suite (tests/conformance/cases.json; schema in
// the repository's conformance documentation) into Filters: shared by the
// test and by anything else that wants to replay it.
const fs = require('node:fs');
const path = require('node:path');

// The suite's files: $BLOOM_SOURCE_DIR names a bloom checkout (its
// tests/conformance/cases.json and tests/golden/); without it, the checkout
// this package sits in. $BLOOM_CONFORMANCE_CASES names another cases file,
// whose golden files are read from the checkout that holds it.
const REPO = process.env.BLOOM_SOURCE_DIR
  ? path.resolve(process.env.BLOOM_SOURCE_DIR)
  : process.env.BLOOM_CONFORMANCE_CASES
    ? path.resolve(path.dirname(process.env.BLOOM_CONFORMANCE_CASES), '..', '..')
    : path.resolve(__dirname, '..', '..', '..');

/** The cases file: $BLOOM_CONFORMANCE_CASES or the checkout's. */
function casesPath() {
  return process.env.BLOOM_CONFORMANCE_CASES || path.join(REPO, 'tests', 'conformance', 'cases.json');
}

/** Parse the file; "seed" values above 2^53 are read exactly, as BigInt. */
function readCases(file) {
  const text = fs.readFileSync(file, 'utf8');
  // JSON.parse would round a 64-bit seed to a double: quote every seed first.
  const exact = text.replace(/("seed"\s*:\s*)(\d+)/g, '$1"$2"');
  const suite = JSON.parse(exact, (key, value) => (key === 'seed' ? BigInt(value) : value));
  if (suite.format !== 1) throw new Error(`${file}: format ${suite.format}, this runner reads format 1`);
  return suite;
}

/** "s:text" -> UTF-8 bytes, "x:hex" -> raw bytes, as a Buffer. */
function keyBytes(spec) {
  if (spec.startsWith('s:')) return Buffer.from(spec.slice(2), 'utf8');
  if (spec.startsWith('x:')) {
    const hex = spec.slice(2);
    if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error(`bad hex key ${JSON.stringify(spec)}`);
    return Buffer.from(hex, 'hex');
  }
  throw new Error(`a key must start with s: or x:, got ${JSON.stringify(spec)}`);
}

/** The key as the binding's natural type: a string for s:, a Buffer for x:. */
function keyValue(spec) {
  return spec.startsWith('s:') ? spec.slice(2) : keyBytes(spec);
}

const FLAG_OPTIONS = { concurrent: 'concurrent', plain_double_hashing: 'plainDoubleHashing' };
const NUMBER_OPTIONS = {
  capacity: 'capacity', fp_rate: 'fpRate', seed: 'seed', bits: 'bits', hashes: 'hashes', growth: 'growth',
  tightening: 'tightening', counter_bits: 'counterBits', window_ms: 'windowMs',
};

/** A case's "options" as FilterOptions; an unknown member or flag throws. */
function filterOptions(options) {
  const out = {};
  for (const [name, value] of Object.entries(options)) {
    if (name === 'kind' || name === 'hash') out[name] = value;
    else if (name === 'flags') {
      for (const flag of value) {
        if (!FLAG_OPTIONS[flag]) throw new Error(`unknown flag ${JSON.stringify(flag)}`);
        out[FLAG_OPTIONS[flag]] = true;
      }
    } else if (NUMBER_OPTIONS[name]) out[NUMBER_OPTIONS[name]] = value;
    else throw new Error(`unknown option ${JSON.stringify(name)}`);
  }
  return out;
}

/** snake_case info member -> the binding's camelCase one. */
function infoMember(name) {
  return name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

module.exports = { REPO, casesPath, readCases, keyBytes, keyValue, filterOptions, infoMember };
