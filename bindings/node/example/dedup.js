// SPDX-License-Identifier: Apache-2.0
'use strict';
// Stream de-duplication (the seeds' use case): print each line the first
// time it is seen, with a filter sized for the stream, then save the filter
// so a C program, the CLI (`bloom query seen.bloom KEY`) or Python can
// answer the same. Run: node example/dedup.js < some-lines.txt
const readline = require('node:readline');
const path = require('node:path');
const os = require('node:os');
const { Filter } = require('..');

async function main() {
  const seen = new Filter({ capacity: 1_000_000, fpRate: 0.001 });
  try {
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    let total = 0;
    let unique = 0;
    for await (const line of lines) {
      total++;
      if (!seen.testAndAdd(line)) {
        unique++;
        process.stdout.write(`${line}\n`);
      }
    }
    const file = path.join(os.tmpdir(), 'seen.bloom');
    seen.save(file);
    const info = seen.info();
    console.error(`${unique} of ${total} lines were new; saved ${file} ` +
      `(${info.bytes} bytes, estimated ${Math.round(info.estimatedKeys)} keys)`);
  } finally {
    seen.close();
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
