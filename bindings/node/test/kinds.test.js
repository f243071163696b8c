// SPDX-License-Identifier: Apache-2.0
'use strict';
// The kinds the library lists (bloom_kind_count/at): each one this binding
// can name and create, whose capabilities it knows, and that behaves as they
// say. A kind or capability added to the library without this binding
// learning it fails here.
const test = require('node:test');
const assert = require('node:assert/strict');
const bloomkit = require('..');
const { Filter, BloomError } = bloomkit;

function filled(kind, extra = {}) {
  const f = new Filter({ kind, capacity: 200, fpRate: 0.01, ...extra });
  for (let i = 0; i < 50; i++) f.add(`k${i}`);
  return f;
}

/** Whether fn runs without a BloomError (any other error fails the test). */
function works(fn) {
  try {
    fn();
    return true;
  } catch (e) {
    if (!(e instanceof BloomError)) throw e;
    return false;
  }
}

test('the library lists its kinds in order, each with a name', () => {
  const codes = bloomkit.kindList.map((k) => k.code);
  assert.ok(codes.length > 0);
  assert.deepEqual(codes, [...new Set(codes)].sort((a, b) => a - b));
  assert.deepEqual(bloomkit.kinds, bloomkit.kindList.map((k) => k.name));
  for (const k of bloomkit.kindList) assert.match(k.name, /^[a-z]+$/, `kind ${k.code} has no name`);
});

test('every capability of every kind has a name here', () => {
  for (const k of bloomkit.kindList) {
    assert.equal(k.unknownCaps, 0, `${k.name}: capability bits ${k.unknownCaps} this binding does not name`);
    assert.deepEqual(bloomkit.kindCaps(k.name), k.caps);
  }
  assert.throws(() => bloomkit.kindCaps('nope'), RangeError);
});

test('each kind behaves as its capabilities say', () => {
  for (const { name, caps } of bloomkit.kindList) {
    const has = (cap) => caps.includes(cap);
    const f = filled(name);
    assert.equal(f.info().kind, name);
    assert.ok(f.has('k1'));
    assert.equal(works(() => f.remove('k1')), has('remove'), `${name}: remove`);
    assert.equal(works(() => f.merge(filled(name))), has('merge'), `${name}: merge`);
    assert.equal(works(() => filled(name).intersect(filled(name))), has('intersect'), `${name}: intersect`);
    assert.equal(works(() => filled(name, { concurrent: true })), has('concurrent'), `${name}: concurrent`);
    assert.equal(works(() => filled(name, { splitBlock: true })), has('splitBlock'), `${name}: splitBlock`);
    assert.equal(works(() => filled(name, { hash: 'redisbloom' })), has('redisbloomHash'), `${name}: redisbloom`);
    const info = f.info();
    // Every bloom_info member reaches JS (the table is generated from bloom.h).
    for (const member of ['windowMs', 'generationStartMs', 'formatMinor', 'counterBits']) {
      assert.equal(typeof info[member], 'number', `${name}: info.${member}`);
    }
  }
});
