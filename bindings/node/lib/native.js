// SPDX-License-Identifier: Apache-2.0
'use strict';
// The compiled addon (src/, built by `npm install` / `npm run build`).
const path = require('node:path');

let native;
try {
  native = require(path.join(__dirname, '..', 'build', 'Release', 'bloomkit.node'));
} catch (e) {
  const err = new Error(
    `bloomkit: cannot load the native addon (${e.message}). Build it with ` +
    '`npm run build` (needs node-gyp, a C compiler and the bloom C library found by pkg-config).');
  err.cause = e;
  throw err;
}
module.exports = native;
