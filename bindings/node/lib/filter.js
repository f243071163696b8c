// SPDX-License-Identifier: Apache-2.0
'use strict';
const native = require('./native');
require('./errors'); // registers BloomError with the addon before any call
const { toNative, u64 } = require('./options');
const { pack } = require('./pack');

// The safety net: a Filter dropped without close() has its C filter freed
// when the object is collected. close() unregisters, so the filter is
// destroyed exactly once either way (src/handle.c also frees on the handle's
// own finalizer, and both go through the same NULL-after-destroy slot).
const registry = new FinalizationRegistry((handle) => native.close(handle));

function checkPath(path) {
  if (typeof path !== 'string') throw new TypeError('path must be a string');
  // C would stop at the NUL and use a shorter name.
  if (path.includes('\0')) throw new TypeError('path must not contain a NUL character');
  return path;
}

/**
 * A Bloom filter backed by one C `bloom_filter`: a set that may answer
 * "maybe" (true) for keys never added, at about the false-positive rate it
 * was sized for, but never answers false for a key that was added.
 *
 * Keys are strings (hashed as UTF-8) or bytes (Buffer, any TypedArray,
 * DataView, ArrayBuffer). The filter owns C memory: release it with
 * {@link Filter#close} when done; a filter that is garbage-collected
 * unclosed is released then.
 *
 * Thread safety (worker_threads share nothing, so it matters only for a
 * filter's image or file moved between them): each Filter is used from the
 * thread that made it.
 *
 * @example
 * const { Filter } = require('bloomkit');
 * const f = new Filter({ capacity: 10000, fpRate: 0.001 });
 * f.add('alice');
 * f.has('alice'); // true
 * f.has('bob');   // false (almost certainly)
 * f.close();
 */
class Filter {
  /**
   * @param {import('../index').FilterOptions} [options]
   */
  constructor(options) {
    this._attach(native.create(toNative(options)));
  }

  /** @private */
  _attach(handle) {
    this._handle = handle;
    registry.register(this, handle, this);
  }

  /** @private */
  static _wrap(handle) {
    const f = Object.create(Filter.prototype);
    f._attach(handle);
    return f;
  }

  /** Read a file written by save() (or any bloom user). @param {string} path @returns {Filter} */
  static load(path) {
    return Filter._wrap(native.load(checkPath(path)));
  }

  /**
   * Map a saved file read-only and query it in place (shared by every process
   * that maps it); writes throw BloomError UNSUPPORTED.
   * @param {string} path @returns {Filter}
   */
  static map(path) {
    return Filter._wrap(native.map(checkPath(path)));
  }

  /** Build a filter from an image made by serialize() or a saved file's bytes. @param {Uint8Array|ArrayBuffer|DataView} image @returns {Filter} */
  static deserialize(image) {
    if (typeof image === 'string') throw new TypeError('image must be bytes, not a string');
    return Filter._wrap(native.deserialize(image));
  }

  /** Release the C filter now. Further calls (except close) throw. */
  close() {
    if (this._handle === null) return;
    registry.unregister(this);
    native.close(this._handle);
    this._handle = null;
  }

  /** true once close() has run. @type {boolean} */
  get closed() {
    return this._handle === null;
  }

  /** @private */
  _h() {
    if (this._handle === null) throw new Error('bloomkit: the filter is closed');
    return this._handle;
  }

  /** Add a key. @param {import('../index').Key} key */
  add(key) {
    native.add(this._h(), key);
  }

  /** true if the key may have been added, false if it certainly was not. @param {import('../index').Key} key @returns {boolean} */
  has(key) {
    return native.query(this._h(), key);
  }

  /**
   * Add the key; return whether it may have been present before (false =
   * certainly new).
   * @param {import('../index').Key} key @returns {boolean}
   */
  testAndAdd(key) {
    return native.testAndAdd(this._h(), key);
  }

  /**
   * Kinds that remove (kindCaps(kind) has 'remove'): remove one occurrence
   * of an added key. Throws BloomError NOT_PRESENT when the filter shows it
   * was never added, UNSUPPORTED for other kinds.
   * @param {import('../index').Key} key
   */
  remove(key) {
    native.remove(this._h(), key);
  }

  /** Add every key of the array in one C call. @param {import('../index').Key[]} keys */
  addBatch(keys) {
    const h = this._h();
    const packed = pack(keys);
    if (packed) native.addPacked(h, packed.bytes, packed.lengths);
    else native.addBatch(h, keys);
  }

  /** has() for every key of the array in one C call. @param {import('../index').Key[]} keys @returns {boolean[]} */
  queryBatch(keys) {
    const answers = this.queryBatchBytes(keys);
    const out = new Array(answers.length);
    for (let i = 0; i < answers.length; i++) out[i] = answers[i] === 1;
    return out;
  }

  /**
   * queryBatch() as a Uint8Array of 0/1, skipping the boolean array.
   * @param {import('../index').Key[]} keys @returns {Uint8Array}
   */
  queryBatchBytes(keys) {
    const h = this._h();
    const packed = pack(keys);
    return packed ? native.queryPacked(h, packed.bytes, packed.lengths) : native.queryBatch(h, keys);
  }

  /** this := this UNION other (same parameters, else BloomError INCOMPATIBLE). @param {Filter} other */
  merge(other) {
    if (!(other instanceof Filter)) throw new TypeError('other must be a Filter');
    native.merge(this._h(), other._h());
  }

  /** this := this INTERSECT other (same rules as merge). @param {Filter} other */
  intersect(other) {
    if (!(other instanceof Filter)) throw new TypeError('other must be a Filter');
    native.intersect(this._h(), other._h());
  }

  /** Empty the filter, keeping its parameters. */
  clear() {
    native.clear(this._h());
  }

  /** A deep, independent, writable copy. @returns {Filter} */
  clone() {
    return Filter._wrap(native.clone(this._h()));
  }

  /** Write the file atomically (temp file, fsync, rename). @param {string} path */
  save(path) {
    native.save(this._h(), checkPath(path));
  }

  /** The file image (format v1) as a Buffer. @returns {Buffer} */
  serialize() {
    return native.serialize(this._h());
  }

  /** serialize().length without making the image. @returns {number} */
  serializedSize() {
    return native.serializedSize(this._h());
  }

  /** Parameters and fill (bloom_get_info). @returns {import('../index').FilterInfo} */
  info() {
    return native.info(this._h());
  }

  /** One stage's info (scalable: 0 = oldest; other kinds: stage 0 = the filter). @param {number} stage @returns {import('../index').FilterInfo} */
  stageInfo(stage) {
    if (!Number.isInteger(stage) || stage < 0 || stage > 0xffffffff) throw new RangeError('stage must be an integer >= 0');
    return native.stageInfo(this._h(), stage);
  }

  /**
   * Kinds that forget (kindCaps(kind) has 'forgets'): move the time window
   * to nowMs (a time window of windowMs ms); keys older than the window
   * expire. Other filters throw BloomError UNSUPPORTED.
   * @param {number|bigint} nowMs
   */
  advance(nowMs) {
    native.advance(this._h(), u64('nowMs', nowMs, 0n));
  }
}

module.exports = { Filter };
