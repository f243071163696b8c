// SPDX-License-Identifier: Apache-2.0
'use strict';
// The Node binding's own behaviour: every kind and option, key types,
// batches, set operations, persistence, info, errors, ownership.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const bloomkit = require('..');
const { Filter, BloomError, Status } = bloomkit;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bloomkit-test-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const KEYS = Array.from({ length: 2000 }, (_, i) => `key-${i}`);

test('every kind answers maybe for every added key', () => {
  for (const kind of ['classic', 'partitioned', 'blocked', 'counting', 'scalable']) {
    for (const hash of ['xxh3', 'murmur3', 'fnv1a', 'redisbloom']) {
      // RedisBloom's hashing is defined for classic and scalable only.
      if (hash === 'redisbloom' && kind !== 'classic' && kind !== 'scalable') continue;
      const f = new Filter({ kind, hash, capacity: 1000, fpRate: 0.01, seed: 7 });
      f.addBatch(KEYS);
      assert.ok(KEYS.every((k) => f.has(k)), `${kind}/${hash}: a false negative`);
      const info = f.info();
      assert.equal(info.kind, kind);
      assert.equal(info.hash, hash);
      assert.equal(info.seed, 7n);
      // 2000 keys in a filter sized for 1000 at 1%: far from all maybe.
      const fp = Array.from({ length: 1000 }, (_, i) => f.has(`absent-${i}`)).filter(Boolean).length;
      assert.ok(fp < 500, `${kind}/${hash}: ${fp} of 1000 absent keys answered maybe`);
      f.close();
    }
  }
});

test('a filter of a foreign hash reports the name it was created with', () => {
  // info().hash gives the library's name, which the options take back.
  for (const hash of ['guava', 'bits-and-blooms']) {
    const f = new Filter({ kind: 'classic', hash, capacity: 1000, fpRate: 0.01 });
    f.addBatch(KEYS);
    assert.ok(KEYS.every((k) => f.has(k)), `${hash}: a false negative`);
    assert.equal(f.info().hash, hash);
    f.close();
  }
});

test('strings hash as their UTF-8 bytes; every byte view hashes its bytes', () => {
  const f = new Filter({ capacity: 100 });
  f.add('héllo 🌍');
  assert.ok(f.has(Buffer.from('héllo 🌍', 'utf8')));
  const raw = Buffer.from([0, 255, 16, 0]);
  f.add(raw);
  assert.ok(f.has(new Uint8Array([0, 255, 16, 0])));
  assert.ok(f.has(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length)));
  assert.ok(f.has(new DataView(Uint8Array.from([0, 255, 16, 0]).buffer)));
  assert.ok(f.has(new Uint16Array(new Uint8Array([0, 255, 16, 0]).buffer)));
  // A view into the middle of a larger buffer hashes only its window.
  const big = Buffer.from([9, 9, 0, 255, 16, 0, 9]);
  assert.ok(f.has(big.subarray(2, 6)));
  f.add('');
  assert.ok(f.has(Buffer.alloc(0)));
  // A long string (past the 256-byte stack buffer) and its bytes agree.
  const long = 'ü'.repeat(1000);
  f.add(long);
  assert.ok(f.has(Buffer.from(long)));
  assert.deepEqual(f.queryBatch([long, Buffer.from(long), 'héllo 🌍', raw]), [true, true, true, true]);
  f.close();
});

test('a batch of mixed strings and bytes equals single calls', () => {
  const a = new Filter({ capacity: 5000 });
  const b = new Filter({ capacity: 5000 });
  const keys = KEYS.map((k, i) => (i % 3 === 0 ? Buffer.from(k) : i % 3 === 1 ? k.repeat(40) : k));
  a.addBatch(keys);
  for (const k of keys) b.add(k);
  assert.ok(a.serialize().equals(b.serialize()));
  assert.deepEqual(a.queryBatch(keys), keys.map(() => true));
  assert.deepEqual(Array.from(a.queryBatchBytes(['x', keys[0]])), [a.has('x') ? 1 : 0, 1]);
  a.addBatch([]);
  assert.deepEqual(a.queryBatch([]), []);
  a.close();
  b.close();
});

test('bad keys and bad options are TypeError / RangeError, not crashes', () => {
  const f = new Filter({ capacity: 10 });
  assert.throws(() => f.add(42), TypeError);
  assert.throws(() => f.add({}), TypeError);
  assert.throws(() => f.has(null), TypeError);
  assert.throws(() => f.addBatch('abc'), TypeError);
  assert.throws(() => f.addBatch(['a', 1]), /keys\[1\]/);
  assert.throws(() => f.queryBatch([undefined]), TypeError);
  assert.throws(() => new Filter({ kind: 'bogus' }), RangeError);
  assert.throws(() => new Filter({ hash: 'md5' }), RangeError);
  assert.throws(() => new Filter({ capacity: -1 }), RangeError);
  assert.throws(() => new Filter({ capacity: 1.5 }), RangeError);
  assert.throws(() => new Filter({ capacty: 10 }), /unknown option/);
  assert.throws(() => f.save('a\0b'), TypeError);
  f.close();
});

test('C statuses arrive as BloomError with status, code and message', () => {
  const cases = [
    [() => new Filter({ fpRate: 1.5 }), Status.INVALID_ARG],
    [() => new Filter({ capacity: 0 }), Status.INVALID_ARG],
    [() => new Filter({ kind: 'scalable', concurrent: true }), Status.UNSUPPORTED],
    [() => new Filter({ kind: 'blocked', plainDoubleHashing: true }), Status.INVALID_ARG],
    [() => new Filter({ bits: 1n << 41n }), Status.OVERFLOW],
    [() => Filter.load(path.join(tmp, 'missing.bloom')), Status.IO],
    [() => Filter.deserialize(Buffer.from('not a filter at all, clearly')), Status.FORMAT],
  ];
  for (const [fn, status] of cases) {
    assert.throws(fn, (e) => {
      assert.ok(e instanceof BloomError && e instanceof Error);
      assert.equal(e.status, status);
      assert.equal(e.code, Object.keys(Status).find((k) => Status[k] === status));
      assert.ok(e.message.length > 0);
      return true;
    });
  }
  const c = new Filter({ kind: 'counting', capacity: 100 });
  assert.throws(() => c.remove('never'), (e) => e.status === Status.NOT_PRESENT && /remove/.test(e.message));
  c.close();
  const plain = new Filter({ capacity: 100 });
  assert.throws(() => plain.remove('a'), (e) => e.status === Status.UNSUPPORTED);
  plain.close();
});

test('a corrupted image is a CHECKSUM error', () => {
  const f = new Filter({ capacity: 100 });
  f.add('a');
  const image = f.serialize();
  image[image.length - 1] ^= 0xff;
  assert.throws(() => Filter.deserialize(image), (e) => e.status === Status.CHECKSUM);
  f.close();
});

test('testAndAdd, remove, clear, clone', () => {
  const f = new Filter({ kind: 'counting', capacity: 100, counterBits: 8 });
  assert.equal(f.testAndAdd('a'), false);
  assert.equal(f.testAndAdd('a'), true);
  f.remove('a');
  assert.ok(f.has('a'));
  f.remove('a');
  assert.equal(f.has('a'), false);
  f.add('b');
  const copy = f.clone();
  f.clear();
  assert.equal(f.has('b'), false);
  assert.ok(copy.has('b'));
  assert.equal(copy.info().counterBits, 8);
  f.close();
  copy.close();
});

test('merge and intersect; incompatible filters are refused', () => {
  const a = new Filter({ capacity: 1000 });
  const b = new Filter({ capacity: 1000 });
  a.add('only-a');
  a.add('both');
  b.add('only-b');
  b.add('both');
  const u = a.clone();
  u.merge(b);
  assert.ok(u.has('only-a') && u.has('only-b') && u.has('both'));
  a.intersect(b);
  assert.ok(a.has('both'));
  const other = new Filter({ capacity: 1000, seed: 1 });
  assert.throws(() => a.merge(other), (e) => e.status === Status.INCOMPATIBLE && /seed/.test(e.message));
  assert.throws(() => a.merge('x'), TypeError);
  for (const f of [a, b, u, other]) f.close();
});

test('save, load, map, serialize and deserialize round-trip the same bytes', () => {
  const f = new Filter({ kind: 'blocked', capacity: 10000, fpRate: 0.001 });
  f.addBatch(KEYS);
  const file = path.join(tmp, 'f.bloom');
  f.save(file);
  const image = f.serialize();
  assert.equal(image.length, f.serializedSize());
  assert.ok(fs.readFileSync(file).equals(image));
  const loaded = Filter.load(file);
  const mapped = Filter.map(file);
  const fromBytes = Filter.deserialize(new Uint8Array(image));
  for (const g of [loaded, mapped, fromBytes]) {
    assert.deepEqual(g.queryBatch(KEYS), KEYS.map(() => true));
    assert.ok(g.serialize().equals(image));
  }
  assert.equal(mapped.info().readOnly, true);
  assert.throws(() => mapped.add('x'), (e) => e.status === Status.UNSUPPORTED);
  assert.throws(() => Filter.deserialize('text'), TypeError);
  for (const g of [f, loaded, mapped, fromBytes]) g.close();
});

test('info and stage info of a scalable filter', () => {
  const f = new Filter({ kind: 'scalable', capacity: 100, fpRate: 0.01, growth: 2, tightening: 0.5 });
  f.addBatch(KEYS);
  const info = f.info();
  assert.ok(info.stages > 1);
  assert.equal(info.growth, 2);
  assert.equal(info.tightening, 0.5);
  assert.equal(info.keysAdded, KEYS.length);
  let bits = 0;
  for (let i = 0; i < info.stages; i++) bits += f.stageInfo(i).bits;
  assert.equal(bits, info.bits);
  assert.equal(f.stageInfo(0).capacity, 100);
  assert.throws(() => f.stageInfo(info.stages), (e) => e.status === Status.INVALID_ARG);
  assert.throws(() => f.stageInfo(-1), RangeError);
  f.close();
});

test('flags, explicit bits and hashes, 64-bit seeds', () => {
  const f = new Filter({ bits: 4096, hashes: 3, seed: 0xfeedfacecafebeefn, concurrent: true, plainDoubleHashing: true });
  const info = f.info();
  assert.equal(info.bits, 4096);
  assert.equal(info.hashes, 3);
  assert.equal(info.seed, 0xfeedfacecafebeefn);
  assert.deepEqual(info.flags, ['concurrent', 'plain_double_hashing']);
  f.close();
});

test('optimal params, expected rate, version', () => {
  assert.deepEqual(bloomkit.optimalParams(1000000, 0.0001), { bits: 19170117, hashes: 13 });
  assert.ok(Math.abs(bloomkit.expectedFpRate(1000, 9586, 7) - 0.01) < 0.001);
  assert.ok(Number.isNaN(bloomkit.expectedFpRate(1000, 0, 7)));
  assert.throws(() => bloomkit.optimalParams(0, 0.01), (e) => e.status === Status.INVALID_ARG);
  assert.match(bloomkit.version, /^\d+\.\d+\.\d+$/);
  // Loading checked the library is at least the release the addon was built
  // against, and names the file it loaded.
  assert.ok(bloomkit.library.versionNumber >= bloomkit.library.builtFor);
  assert.ok(bloomkit.library.builtFor >= 300);
  assert.ok(require('node:fs').existsSync(bloomkit.library.file), bloomkit.library.file);
  assert.match(bloomkit.library.file, /libbloomfilter\.so/);
  assert.equal(bloomkit.library.bindingOptionsSize, 104);
  assert.ok(bloomkit.library.optionsSize <= bloomkit.library.bindingOptionsSize);
});

test('close is idempotent and a closed filter refuses calls', () => {
  const f = new Filter({ capacity: 10 });
  f.close();
  f.close();
  assert.equal(f.closed, true);
  assert.throws(() => f.add('a'), /closed/);
  const g = new Filter({ capacity: 10 });
  assert.throws(() => g.merge(f), /closed/);
  g.close();
});

test('unclosed filters are freed by the garbage collector', { skip: typeof global.gc !== 'function' && 'run with --expose-gc' }, async () => {
  // 200 unclosed filters of 1.2 MB, every page written (5000 keys x 7
  // probes over 293 pages): 240 MB resident if nothing frees them.
  const keys = KEYS.concat(KEYS.map((k) => `${k}+`), KEYS.map((k) => `${k}++`));
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 200; i++) {
    new Filter({ capacity: 1_000_000 }).addBatch(keys);
    if (i % 20 === 0) {
      global.gc();
      await new Promise((r) => setImmediate(r));
    }
  }
  global.gc();
  await new Promise((r) => setImmediate(r));
  const grown = (process.memoryUsage().rss - before) / 2 ** 20;
  assert.ok(grown < 120, `RSS grew ${grown.toFixed(0)} MB`);
});

test('unclosed filters weigh on the garbage collector by their size', async () => {
  // No global.gc(): 120 unclosed filters of 3.6 MB (every page written),
  // 430 MB if nothing frees them. The addon tells V8 each filter's bytes
  // (napi_adjust_external_memory), so V8 collects on its own; without that it
  // saw a few bytes per filter and RSS grew by all of it.
  const keys = KEYS.concat(KEYS.map((k) => `${k}+`), KEYS.map((k) => `${k}++`), KEYS.map((k) => `${k}#`));
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 120; i++) {
    new Filter({ capacity: 3_000_000 }).addBatch(keys);
    if (i % 10 === 9) await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setImmediate(r));
  const grown = (process.memoryUsage().rss - before) / 2 ** 20;
  console.log(`RSS grew ${grown.toFixed(0)} MB`);
  assert.ok(grown < 250, `RSS grew ${grown.toFixed(0)} MB of the 430 MB the filters held`);
});

test('the window kind', () => {
  const f = new Filter({ kind: 'window', capacity: 1000, windowMs: 1000 });
  f.advance(0);
  f.add('old');
  assert.ok(f.has('old'));
  f.advance(10_000n);
  f.add('new');
  assert.ok(f.has('new'));
  assert.equal(f.info().kind, 'window');
  f.close();
});

test('advance is refused by a kind that keeps no clock', () => {
  assert.ok(!bloomkit.kindCaps('classic').includes('forgets'));
  const f = new Filter({ capacity: 10 });
  assert.throws(() => f.advance(1), (e) => e instanceof BloomError && e.status === Status.UNSUPPORTED);
  f.close();
});

test('string batches are packed exactly: non-ASCII, long, empty and split surrogates', () => {
  const keys = ['', 'ascii', 'héllo', '🌍', 'x'.repeat(100000), '\ud800', '\udc00', 'tail\ud83c', '\udf0dhead'];
  const a = new Filter({ capacity: 1000 });
  const b = new Filter({ capacity: 1000 });
  a.addBatch(keys);
  for (const k of keys) b.add(k);
  assert.ok(a.serialize().equals(b.serialize()), 'batch and single adds set different bits');
  assert.deepEqual(a.queryBatch(keys), keys.map(() => true));
  // Each key on its own: '\ud800' is hashed as U+FFFD's bytes, like Buffer.from.
  assert.ok(a.has(Buffer.from('\ud800')));
  a.close();
  b.close();
});

test('packed batches reuse their arrays safely: sizes up and down, strings then Buffers', () => {
  // The packing reuses one lengths array and one byte buffer between calls
  // (lib/pack.js); a batch smaller than the last must not see its lengths.
  const big = Array.from({ length: 200_001 }, (_, i) => `k${i}-${'é'.repeat(i % 5)}`);
  const sizes = [3, 2000, 1, 200_001, 7, 1024, 1025, 0, 5];
  const a = new Filter({ capacity: 300_000 });
  const b = new Filter({ capacity: 300_000 });
  let at = 0;
  for (const n of sizes) {
    const part = big.slice(at, at + n);
    at += n;
    if (n % 2) a.addBatch(part);
    else a.addBatch(part.map((k) => Buffer.from(k)));
    for (const k of part) b.add(k);
    assert.deepEqual(Array.from(a.queryBatchBytes(part)), part.map(() => 1));
  }
  assert.ok(a.serialize().equals(b.serialize()), 'batches and single adds set different bits');
  const absent = Array.from({ length: 5000 }, (_, i) => `absent-${i}`);
  assert.deepEqual(a.queryBatch(absent), absent.map((k) => a.has(k)));
  assert.ok(a.queryBatch(absent).includes(false));
  a.close();
  b.close();
});

test('splitBlock: a blocked filter of 32-byte blocks, refused by other kinds', () => {
  const f = new Filter({ kind: 'blocked', splitBlock: true, capacity: 2000, fpRate: 0.001 });
  f.addBatch(KEYS);
  assert.ok(KEYS.every((k) => f.has(k)), 'a false negative');
  const info = f.info();
  assert.deepEqual(info.flags, ['split_block']);
  assert.equal(info.hashes, 8);
  f.close();
  assert.throws(() => new Filter({ kind: 'classic', splitBlock: true }),
    (e) => e instanceof BloomError && e.status === Status.INVALID_ARG);
});
