// SPDX-License-Identifier: Apache-2.0
// Several processes de-duplicate one stream of click IDs through one Redis
// sliding-window filter (bloom's Redis module, docs/redis.md "Sliding
// windows"), with node-redis (npm "redis").
//
// The stream's clicks are dealt round-robin to worker processes, so a double
// click usually reaches two different workers. Each worker sends its clicks
// with BF.MADD: Redis runs each command alone, and for each click the first
// BF.ADD-style answer 1 ("not seen inside the window") goes to exactly one
// worker, which passes the click on; every later copy answers 0 and is
// dropped, whichever worker holds it. The filter forgets IDs older than the
// window, so memory stays fixed however long the stream runs.
//
// Sizing (docs/redis.md): capacity = peak clicks per second x window. This
// demo's stream is small; a real one at 10,000 clicks a second over an hour
// is `BF.RESERVE clicks 0.001 36000000 WINDOW 1h` (about 124 MB).
//
// Usage: node node_window_dedup.js [--port 6379] [--workers 4] [--clicks 20000]
//          [--rate 5000] [--window-seconds 10] [--key clicks] [--check]
// The clicks arrive at --rate a second (a live stream: never faster, later
// when the machine is busy) and are remembered for --window-seconds.
// With --check it exits 1 unless every click passed at most once and no more
// new clicks were dropped than the false-positive rate allows.
// node-redis: `npm install redis` (NODE_PATH=<dir>/node_modules to use one
// installed elsewhere).
'use strict';

const { fork } = require('node:child_process');

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const port = Number(option('port', process.env.REDIS_PORT || 6379));
const key = option('key', 'clicks');
const errorRate = 0.001;

function connect() {
  let redis;
  try {
    redis = require('redis');
  } catch (e) {
    console.error('node_window_dedup: needs node-redis: npm install redis (or NODE_PATH=<dir>/node_modules)');
    process.exit(2);
  }
  const client = redis.createClient({ socket: { host: '127.0.0.1', port } });
  client.on('error', (e) => {
    console.error(`node_window_dedup: ${e.message}`);
    process.exit(2);
  });
  return client.connect().then(() => client);
}

// A worker: clicks arrive as messages of [seq, id] batches; each batch is one
// BF.MADD; the clicks answered 1 (new inside the window) go back to the parent.
async function worker() {
  const client = await connect();
  process.on('message', async (msg) => {
    if (msg === 'end') {
      await client.quit();
      process.disconnect();
      return;
    }
    const ids = msg.map(([, id]) => id);
    const answers = await client.sendCommand(['BF.MADD', key, ...ids]);
    const passed = msg.filter((_, i) => Number(answers[i]) === 1);
    process.send({ passed, seen: msg.length });
  });
  process.send('ready');
}

// The stream: click i is "c<i>"; about one click in ten is a double click,
// repeated a few clicks later (so usually dealt to another worker).
function makeStream(n) {
  const stream = [];
  let next = 0;
  const pending = [];
  let seed = 34;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  while (stream.length < n) {
    if (pending.length > 0 && pending[0].at <= stream.length) {
      stream.push(pending.shift().id);
      continue;
    }
    const id = `c${next++}`;
    stream.push(id);
    if (random() < 0.1) pending.push({ id, at: stream.length + 1 + Math.floor(random() * 5) });
  }
  return stream;
}

async function parent() {
  const workers = Number(option('workers', 4));
  const clicks = Number(option('clicks', 20000));
  const check = process.argv.includes('--check');
  const client = await connect();
  const rate = Number(option('rate', 5000));
  const windowSeconds = Number(option('window-seconds', 10));
  // Sized as a live stream is: capacity = the most clicks one window holds,
  // rate x window, with room for bursts of twice the rate. A window that
  // takes more keeps them all and drops more new clicks instead.
  const capacity = Math.ceil(2 * rate * windowSeconds);
  await client.del(key);
  await client.sendCommand(['BF.RESERVE', key, String(errorRate), String(capacity), 'WINDOW', `${windowSeconds}s`]);
  const stream = makeStream(clicks);
  const children = [];
  for (let w = 0; w < workers; ++w) {
    const child = fork(__filename, ['--worker', '--port', String(port), '--key', key]);
    children.push(child);
    await new Promise((resolve) => child.once('message', resolve));
  }
  const passed = [];
  let answered = 0;
  const done = new Promise((resolve) => {
    for (const child of children) {
      child.on('message', (m) => {
        passed.push(...m.passed);
        answered += m.seen;
        if (answered === stream.length) resolve();
      });
    }
  });
  // Deal in small batches, round-robin (a batch is one BF.MADD), paced to
  // the rate: a tick every 10 ms sends a hundredth of a second's clicks. A
  // late tick sends no more than its share, so no burst exceeds the rate.
  const batch = 16;
  const perTick = Math.max(1, Math.round(rate / 100));
  let w = 0;
  for (let tick = 0; tick < stream.length; tick += perTick) {
    for (let i = tick; i < Math.min(tick + perTick, stream.length); i += batch, w = (w + 1) % workers)
      children[w].send(stream.slice(i, Math.min(i + batch, tick + perTick, stream.length)).map((id, j) => [i + j, id]));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await done;
  for (const child of children) child.send('end');
  const info = await client.sendCommand(['BF.INFO', key, 'WINDOW']);
  await client.quit();

  const distinct = new Set(stream).size;
  const passedIds = passed.map(([, id]) => id);
  const passedOnce = new Set(passedIds).size;
  const repeatsPassed = passedIds.length - passedOnce;
  const dropped = distinct - passedOnce;
  console.log(`${stream.length} clicks, ${distinct} distinct, through ${workers} processes and one ` +
              `window (${info[0]}): ${passedIds.length} passed, ${repeatsPassed} repeats passed, ` +
              `${dropped} new clicks dropped as false positives`);
  if (check) {
    // Repeats: none may pass, ever. False drops: at most p of the distinct
    // clicks, with 4 binomial sigmas of room, plus one.
    const bound = distinct * errorRate + 4 * Math.sqrt(distinct * errorRate) + 1;
    if (repeatsPassed !== 0 || dropped > bound) {
      console.error(`node_window_dedup: FAIL (repeats passed ${repeatsPassed}, dropped ${dropped} > ${bound.toFixed(1)})`);
      process.exit(1);
    }
  }
}

(process.argv.includes('--worker') ? worker() : parent()).catch((e) => {
  console.error(`node_window_dedup: ${e.stack || e}`);
  process.exit(2);
});
