// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/**
 * Byte offsets of {@code bloom_options} and {@code bloom_info} members on
 * LP64 (include/bloom/bloom.h; natural alignment). OPTIONS_SIZE includes
 * {@code window_ms}, appended after {@code counter_bits} for the window kind:
 * the binding passes struct_size = 104, and a library whose own struct is
 * smaller reads only its 96 bytes (capi/filter_api.cpp). Checked against the
 * library's defaults and sizes by LayoutTest.
 */
final class Layout {
  private Layout() {}

  static final int O_STRUCT_SIZE = 0;
  static final int O_KIND = 8;
  static final int O_CAPACITY = 16;
  static final int O_FP_RATE = 24;
  static final int O_HASH = 32;
  static final int O_SEED = 40;
  static final int O_FLAGS = 48;
  static final int O_BITS = 56;
  static final int O_HASHES = 64;
  static final int O_GROWTH = 72;
  static final int O_TIGHTENING = 80;
  static final int O_COUNTER_BITS = 88;
  static final int O_WINDOW_MS = 96;
  static final int OPTIONS_SIZE = 104;
  /** sizeof(bloom_options) before window_ms. */
  static final int OPTIONS_SIZE_V0 = 96;

  static final int I_STRUCT_SIZE = 0;
  static final int I_KIND = 8;
  static final int I_HASH = 12;
  static final int I_SEED = 16;
  static final int I_FLAGS = 24;
  static final int I_HASHES = 28;
  static final int I_BITS = 32;
  static final int I_BYTES = 40;
  static final int I_CAPACITY = 48;
  static final int I_FP_RATE = 56;
  static final int I_KEYS_ADDED = 64;
  static final int I_ESTIMATED_KEYS = 72;
  static final int I_FILL_RATIO = 80;
  static final int I_EXPECTED_FP_RATE = 88;
  static final int I_STAGES = 96;
  static final int I_COUNTER_BITS = 100;
  static final int I_GROWTH = 104;
  static final int I_TIGHTENING = 112;
  static final int I_READ_ONLY = 120;
  static final int I_FORMAT_MAJOR = 124;
  static final int I_FORMAT_MINOR = 126;
  static final int INFO_SIZE = 128;

  static final int FLAG_CONCURRENT = 0x1;
  static final int FLAG_PLAIN_DOUBLE_HASHING = 0x2;
  static final int FLAG_SPLIT_BLOCK = 0x4;
}
