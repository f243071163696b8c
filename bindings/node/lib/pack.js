// SPDX-License-Identifier: Apache-2.0
'use strict';
// An array of string keys as one UTF-8 byte run plus a Uint32Array of byte
// lengths, so the native side makes no N-API call per key: four such calls
// per key (bk_batch_get) cost several times the C batch itself. One concatenation and
// one UTF-8 write into a reused buffer measured fastest of the ways tried
// (docs/PERFORMANCE.md, "Bindings"): per-key utf8Write and
// TextEncoder.encodeInto were several times slower (a native call per key).

const SCRATCH_KEEP = 1 << 24; // reuse up to 16 MB; larger batches get one-off arrays
let scratch = Buffer.allocUnsafeSlow(1 << 16);
let scratchLengths = new Uint32Array(1024);

/** A Uint32Array of n lengths: a view of the reused one when it is large enough. */
function lengthsFor(n) {
  if (n <= scratchLengths.length) return scratchLengths.subarray(0, n);
  const grown = new Uint32Array(n);
  if (n * 4 <= SCRATCH_KEEP) scratchLengths = grown;
  return grown;
}

/** A buffer of at least n bytes: the reused one when it is large enough. */
function bytesFor(n) {
  if (n <= scratch.length) return scratch;
  const grown = Buffer.allocUnsafeSlow(n);
  if (n <= SCRATCH_KEEP) scratch = grown;
  return grown;
}

/**
 * @param {unknown} keys
 * @returns {{bytes: Buffer, lengths: Uint32Array} | null} null when keys is
 *   not an array of strings only (the native per-element path handles it).
 *   bytes and lengths may be views of reused arrays: use them before the next call.
 */
function packStrings(keys) {
  if (!Array.isArray(keys)) return null;
  const n = keys.length;
  const lengths = lengthsFor(n);
  // One pass takes the lengths and builds the concatenation (a rope, which
  // utf8Write flattens as it writes): pack + C add measured faster than a
  // lengths loop, keys.join('') and a fresh Uint32Array (bindings/bench).
  let joined = '';
  try {
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      if (typeof k !== 'string') return null;
      lengths[i] = k.length;
      joined += k;
    }
  } catch (e) {
    return null; // past V8's string length limit: convert key by key
  }
  const room = joined.length * 3; // UTF-8 bytes per UTF-16 unit, at most
  const buffer = bytesFor(room);
  const written = buffer.utf8Write(joined, 0, room);
  if (written !== joined.length) {
    // Not all ASCII: each key's own UTF-8 length. A lone surrogate ending one
    // key and one starting the next would pair up in the concatenation and
    // encode differently from the keys alone; the sum then differs (4 bytes,
    // not 3 + 3) and the keys go the per-element way.
    let sum = 0;
    for (let i = 0; i < n; i++) {
      lengths[i] = Buffer.byteLength(keys[i], 'utf8');
      sum += lengths[i];
    }
    if (sum !== written) return null;
  }
  return { bytes: buffer.subarray(0, written), lengths };
}

/**
 * An array of Uint8Arrays (Buffers) copied into one byte run: TypedArray
 * set() per key is a V8 builtin, no N-API call, and beat the per-element
 * native path by an order of magnitude (bindings/bench).
 * @param {unknown[]} keys
 * @returns {{bytes: Buffer, lengths: Uint32Array} | null}
 */
function packBytes(keys) {
  const n = keys.length;
  const lengths = lengthsFor(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (!(k instanceof Uint8Array)) return null;
    lengths[i] = k.length;
    total += k.length;
  }
  const buffer = bytesFor(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    buffer.set(keys[i], at);
    at += lengths[i];
  }
  return { bytes: buffer.subarray(0, total), lengths };
}

/** packStrings, else packBytes, else null (mixed or other views). */
function pack(keys) {
  if (!Array.isArray(keys)) return null;
  if (keys.length > 0 && typeof keys[0] !== 'string') return packBytes(keys);
  return packStrings(keys);
}

module.exports = { pack, packStrings, packBytes };
