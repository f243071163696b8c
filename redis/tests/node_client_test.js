// SPDX-License-Identifier: Apache-2.0
// node-redis (npm "redis", @redis/bloom) against the module, in RESP2 and
// RESP3: its bf.* helpers must see RedisBloom's reply types. In RESP3,
// node-redis passes booleans and maps through untransformed, so an integer
// answer (what the module sent before) fails the strict checks below.
// Usage: REDIS_PORT=... NODE_PATH=<dir with node_modules> node node_client_test.js
'use strict';
const assert = require('node:assert/strict');
const { createClient } = require('redis');

const port = Number(process.env.REDIS_PORT);

async function run(resp) {
  const client = createClient({ socket: { host: '127.0.0.1', port }, RESP: resp });
  client.on('error', (e) => { console.error(e); process.exit(1); });
  await client.connect();
  const k = `node-resp${resp}`;
  await client.del(k);
  assert.equal(await client.bf.reserve(k, 0.01, 1000), 'OK');
  assert.strictEqual(await client.bf.add(k, 'a'), true);
  assert.strictEqual(await client.bf.add(k, 'a'), false);
  assert.deepStrictEqual(await client.bf.mAdd(k, ['a', 'b']), [false, true]);
  assert.strictEqual(await client.bf.exists(k, 'b'), true);
  assert.strictEqual(await client.bf.exists(k, 'never-added'), false);
  assert.deepStrictEqual(await client.bf.mExists(k, ['a', 'never-added']), [true, false]);
  assert.deepStrictEqual(await client.bf.insert(k, ['c', 'a'], { NOCREATE: true }), [true, false]);
  assert.equal(await client.bf.card(k), 3);
  const info = await client.bf.info(k);
  // Both protocols: RedisBloom's five fields, in its order (RESP2 as
  // node-redis builds it from the flat array, RESP3 the map as it comes).
  assert.deepStrictEqual(Object.keys(info),
    ['Capacity', 'Size', 'Number of filters', 'Number of items inserted', 'Expansion rate']);
  assert.equal(info['Capacity'], 1000);
  assert.equal(info['Number of filters'], 1);
  assert.equal(info['Number of items inserted'], 3);
  assert.equal(info['Expansion rate'], 2);
  assert.ok(info['Size'] > 1000 * 9.585 / 8);
  // Errors reach the client as RedisBloom's texts.
  await assert.rejects(client.bf.reserve(k, 0.01, 1000), /item exists/);
  await assert.rejects(client.sendCommand(['BF.RESERVE', `${k}-x`, '2', '10']),
    /error rate must be in the range \(0\.000000, 1\.000000\)/);
  await client.del(k);
  await client.quit();
  console.log(`node-redis RESP${resp}: bf.* replies as RedisBloom's`);
}

(async () => {
  await run(2);
  await run(3);
})().catch((e) => { console.error(e); process.exit(1); });
