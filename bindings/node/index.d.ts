// SPDX-License-Identifier: Apache-2.0
// Type declarations for bloomkit, the Node.js binding of the bloom C library.

/** A key: a string is hashed as its UTF-8 bytes, a byte view as its bytes. */
export type Key = string | ArrayBufferView | ArrayBuffer;

export type Kind = 'classic' | 'partitioned' | 'blocked' | 'counting' | 'scalable' | 'window';
/** 'redisbloom': RedisBloom's hashing, classic and scalable only (library 0.3.0+). 'guava',
 * 'bits-and-blooms' (classic) and 'parquet' (blocked): those libraries' hashing (library 0.3.0+). */
export type Hash = 'xxh3' | 'murmur3' | 'fnv1a' | 'redisbloom' | 'guava' | 'bits-and-blooms' | 'parquet';
export type Flag = 'concurrent' | 'plain_double_hashing' | 'split_block';
/** What a kind can do (BLOOM_CAP_*), as kindCaps and kindList report it. */
export type Cap = 'merge' | 'intersect' | 'remove' | 'grows' | 'forgets' | 'splitBlock' | 'redisbloomHash' | 'concurrent';

/** Parameters of a new filter; absent members take the C library's defaults. */
export interface FilterOptions {
  /** Default "classic"; `kinds` lists the loaded library's. */
  kind?: Kind;
  /** n: expected distinct keys (default 1,000,000; scalable: the first stage's). */
  capacity?: number | bigint;
  /** p: target false-positive rate in (0, 1), default 0.01. */
  fpRate?: number;
  /** Default "xxh3". */
  hash?: Hash;
  /** Hash seed, part of the filter's identity (default 0). */
  seed?: number | bigint;
  /** BLOOM_FLAG_CONCURRENT: adds from many threads (C users of the same filter). */
  concurrent?: boolean;
  /** BLOOM_FLAG_PLAIN_DOUBLE_HASHING: h1 + i*h2 probes (refused by blocked). */
  plainDoubleHashing?: boolean;
  /** BLOOM_FLAG_SPLIT_BLOCK: blocked only, 32-byte blocks with k = 8 (faster, more memory). */
  splitBlock?: boolean;
  /** Explicit m in bits (0 = size from capacity and fpRate). */
  bits?: number | bigint;
  /** Explicit k (0 = optimal). */
  hashes?: number;
  /** Scalable: capacity factor per stage (default 2). */
  growth?: number;
  /** Scalable: error factor per stage (default 0.85). */
  tightening?: number;
  /** Counting: 4 (default) or 8. */
  counterBits?: number;
  /** Window: 0 = a count window of capacity keys; > 0 = a time window of windowMs ms. */
  windowMs?: number | bigint;
}

/** bloom_get_info / bloom_get_stage_info. 64-bit counts are Numbers (exact below 2^53). */
export interface FilterInfo {
  kind: Kind | number;
  hash: Hash | number;
  seed: bigint;
  flags: Flag[];
  flagBits: number;
  hashes: number;
  bits: number;
  bytes: number;
  capacity: number;
  fpRate: number;
  keysAdded: number;
  estimatedKeys: number;
  fillRatio: number;
  expectedFpRate: number;
  stages: number;
  counterBits: number;
  growth: number;
  tightening: number;
  readOnly: boolean;
  formatMajor: number;
  formatMinor: number;
  /** Window filters (0 for other kinds): see bloom.h, BLOOM_KIND_WINDOW. */
  windowMs: number;
  windowK: number;
  windowL: number;
  sliceBits: number;
  generationCapacity: number;
  generation: number;
  generationKeys: number;
  generationMs: number;
  clockMs: number;
  generationStartMs: number;
}

/** The C library's bloom_status values. */
export declare const Status: Readonly<{
  OK: 0; INVALID_ARG: -1; NOMEM: -2; IO: -3; FORMAT: -4; CHECKSUM: -5; VERSION: -6;
  UNSUPPORTED: -7; INCOMPATIBLE: -8; OVERFLOW: -9; BUFFER_TOO_SMALL: -10; NOT_PRESENT: -11;
}>;

/** A failed C call: status is the bloom_status, code its name, message bloom_last_error(). */
export declare class BloomError extends Error {
  constructor(status: number, message: string);
  readonly name: 'BloomError';
  readonly status: number;
  readonly code: keyof typeof Status | 'UNKNOWN';
  /** The library's short description of the status (bloom_strerror). */
  readonly description: string;
}

/**
 * A Bloom filter owned by JavaScript, backed by one C bloom_filter. Call
 * close() when done; an unclosed filter is freed when garbage-collected.
 */
export declare class Filter {
  constructor(options?: FilterOptions);
  static load(path: string): Filter;
  /** Read-only, zero-copy view of a saved file; writes throw UNSUPPORTED. */
  static map(path: string): Filter;
  static deserialize(image: ArrayBufferView | ArrayBuffer): Filter;
  close(): void;
  readonly closed: boolean;
  add(key: Key): void;
  has(key: Key): boolean;
  /** Adds; returns whether the key may have been present before. */
  testAndAdd(key: Key): boolean;
  /** Counting filters only. */
  remove(key: Key): void;
  addBatch(keys: Key[]): void;
  queryBatch(keys: Key[]): boolean[];
  /** queryBatch as 0/1 bytes. */
  queryBatchBytes(keys: Key[]): Uint8Array;
  merge(other: Filter): void;
  intersect(other: Filter): void;
  clear(): void;
  clone(): Filter;
  save(path: string): void;
  serialize(): Buffer;
  serializedSize(): number;
  info(): FilterInfo;
  stageInfo(stage: number): FilterInfo;
  /** Kinds that forget (kindCaps(kind) has 'forgets'): move a time window to nowMs. */
  advance(nowMs: number | bigint): void;
}

export declare function optimalParams(n: number | bigint, p: number): { bits: number; hashes: number };
export declare function expectedFpRate(n: number | bigint, bits: number | bigint, hashes: number): number;

/** The loaded C library. */
export declare const library: Readonly<{
  version: string;
  versionNumber: number;
  /** BLOOM_VERSION_NUMBER of the header the addon was built against; loading
   * refuses an older library, naming its file. */
  builtFor: number;
  /** The libbloomfilter file the addon loaded (dladdr). */
  file: string;
  /** bloom_options_size() of the loaded library. */
  optionsSize: number;
  /** bloom_info_size() of the loaded library. */
  infoSize: number;
  /** struct_size the binding passes: sizeof(bloom_options) of its bloom.h. */
  bindingOptionsSize: number;
  /** Always true: the binding links bloom_advance (kept for older callers). */
  hasAdvance: boolean;
}>;
export declare const version: string;
/** The loaded library's kinds (bloom_kind_count/at), in bloom_kind order. */
export declare const kinds: readonly Kind[];
/** Each kind's name, bloom_kind number and capabilities; unknownCaps: bits this binding cannot name (0). */
export declare const kindList: readonly Readonly<{ name: Kind; code: number; caps: readonly Cap[]; unknownCaps: number }>[];
/** What a kind can do, as the library says; RangeError for an unknown kind. */
export declare function kindCaps(kind: Kind): readonly Cap[];
export declare const hashes: readonly Hash[];
