// SPDX-License-Identifier: Apache-2.0
'use strict';
// Per-call cost of the Node binding: the work of bindings/bench/c_per_call.c
// (1,000,000 keys "key-<i>" into a classic filter of that capacity at 1%;
// single add, single has, then batches of 1000), ns per key, median of 5
// rounds; once with string keys (UTF-8 converted per call) and once with
// Buffer keys (copied into one run). Process CPU time. Output: "<op>_<keytype> ns" lines.
const { Filter } = require('..');

const KEYS = 1_000_000;
const BATCH = 1000;
const ROUNDS = 5;

const strings = Array.from({ length: KEYS }, (_, i) => `key-${i}`);
const buffers = strings.map((s) => Buffer.from(s));
const chunk = (keys) => Array.from({ length: KEYS / BATCH }, (_, i) => keys.slice(i * BATCH, (i + 1) * BATCH));

function median(xs) {
  return xs.slice().sort((a, b) => a - b)[xs.length >> 1];
}

// Process CPU time (user + system, GC threads included), as the C
// baseline measures: wall time on a shared machine is mostly waiting.
function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

function perKey(fn) {
  const t0 = cpuNs();
  fn();
  return (cpuNs() - t0) / KEYS;
}

let hits = 0;
for (const [type, keys] of [['string', strings], ['buffer', buffers]]) {
  const batches = chunk(keys);
  const samples = { add: [], query: [], add_batch: [], query_batch: [] };
  for (let r = 0; r < ROUNDS; r++) {
    let f = new Filter({ capacity: KEYS, fpRate: 0.01 });
    samples.add.push(perKey(() => { for (const k of keys) f.add(k); }));
    samples.query.push(perKey(() => { for (const k of keys) hits += f.has(k) ? 1 : 0; }));
    f.close();
    f = new Filter({ capacity: KEYS, fpRate: 0.01 });
    samples.add_batch.push(perKey(() => { for (const b of batches) f.addBatch(b); }));
    samples.query_batch.push(perKey(() => { for (const b of batches) hits += f.queryBatch(b)[0] ? 1 : 0; }));
    f.close();
  }
  for (const [op, xs] of Object.entries(samples)) console.log(`${op}_${type} ${median(xs).toFixed(1)}`);
}
console.error(`(${hits} hits; node ${process.version})`);
