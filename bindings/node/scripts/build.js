#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
'use strict';
// `npm install` runs this to build the addon with node-gyp against the
// headers of the Node that runs it, never downloading any: a distribution's
// Node (/usr/bin/node, headers in /usr/include/node) gets --nodedir=/usr.
// npm_config_nodedir, when set, wins; with neither, node-gyp falls back to
// its own download, which an offline machine refuses with a clear error.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const args = ['rebuild'];
const prefix = path.resolve(path.dirname(process.execPath), '..');
if (!process.env.npm_config_nodedir && fs.existsSync(path.join(prefix, 'include/node/common.gypi'))) {
  args.push(`--nodedir=${prefix}`);
}

// npm names its own node-gyp in npm_config_node_gyp; otherwise the one on PATH
// (Debian's node-gyp package).
const bundled = process.env.npm_config_node_gyp;
const [cmd, cmdArgs] = bundled && fs.existsSync(bundled)
  ? [process.execPath, [bundled, ...args]]
  : ['node-gyp', args];

const pc = spawnSync('pkg-config', ['--exists', 'bloom']);
if (pc.error || pc.status !== 0) {
  console.error('bloomkit: pkg-config cannot find "bloom": install the bloom C library ' +
    '(cmake --install) and set PKG_CONFIG_PATH to its lib/pkgconfig directory');
  process.exit(1);
}
const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', cwd: path.resolve(__dirname, '..') });
if (r.error) {
  console.error(`bloomkit: cannot run ${cmd}: ${r.error.message}`);
  process.exit(1);
}
process.exit(r.status === null ? 1 : r.status);
