// SPDX-License-Identifier: Apache-2.0
'use strict';
// The conformance suite (tests/conformance/cases.json) through the Node
// binding: every case's answers (single and batch), info, image size and
// sha256, then again after deserialize and after save + load; every golden
// file's answers. With BLOOM_CONFORMANCE_OUT set, each case's file is saved
// there as <case>.bloom for the cross-language check.
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Filter } = require('..');
const c = require('./conformance');

const file = c.casesPath();
const present = fs.existsSync(file);
// Missing cases are a failure, naming the variable that finds them: never a
// skip, never a pass.
const suite = present ? c.readCases(file) : { cases: [], golden: [] };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bloomkit-conformance-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('the cases file exists and has cases', () => {
  assert.ok(present, `no conformance cases at ${file}: set BLOOM_SOURCE_DIR to a bloom checkout`);
  assert.ok(suite.cases.length > 0, 'no cases');
});

function checkAnswers(f, queries, where) {
  for (const [spec, want] of queries) {
    assert.equal(f.has(c.keyValue(spec)), want, `${where}: has(${spec})`);
  }
  const batch = f.queryBatch(queries.map(([spec]) => c.keyValue(spec)));
  assert.deepEqual(batch, queries.map(([, want]) => want), `${where}: queryBatch`);
}

function sha256(bytes) {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

for (const kase of suite.cases) {
  test(`case ${kase.name}`, () => {
    // An unknown kind (e.g. "window" on a library without it) fails here, loudly.
    const f = new Filter(c.filterOptions(kase.options));
    try {
      const keys = kase.add.map(c.keyValue);
      if (kase.add_batch) f.addBatch(keys);
      else for (const k of keys) f.add(k);
      for (const spec of kase.remove || []) f.remove(c.keyValue(spec));

      checkAnswers(f, kase.query, 'built');
      const info = f.info();
      for (const [name, want] of Object.entries(kase.info)) {
        const member = c.infoMember(name);
        assert.ok(member in info, `info has no ${name}`);
        assert.deepEqual(info[member], want, `info.${name}`);
      }

      const image = f.serialize();
      assert.equal(image.length, kase.image_size, 'image size');
      assert.equal(f.serializedSize(), kase.image_size, 'serializedSize');
      assert.equal(sha256(image), kase.image_sha256, 'image sha256');

      const copy = Filter.deserialize(image);
      checkAnswers(copy, kase.query, 'deserialized');
      assert.equal(sha256(copy.serialize()), kase.image_sha256, 'deserialized image sha256');
      copy.close();

      const saved = path.join(tmp, `${kase.name}.bloom`);
      f.save(saved);
      assert.equal(sha256(fs.readFileSync(saved)), kase.image_sha256, 'saved file sha256');
      const loaded = Filter.load(saved);
      checkAnswers(loaded, kase.query, 'loaded');
      loaded.close();

      if (process.env.BLOOM_CONFORMANCE_OUT) f.save(path.join(process.env.BLOOM_CONFORMANCE_OUT, `${kase.name}.bloom`));
    } finally {
      f.close();
    }
  });
}

for (const golden of suite.golden) {
  test(`golden ${golden.file}`, () => {
    const f = Filter.load(path.join(c.REPO, golden.file));
    try {
      checkAnswers(f, golden.query, golden.file);
    } finally {
      f.close();
    }
  });
}
