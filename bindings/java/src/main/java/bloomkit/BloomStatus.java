// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/** The C library's {@code bloom_status} codes, pinned forever by {@code bloom.h}. */
public enum BloomStatus {
  /** Success. */
  OK,
  /** A NULL pointer or a value out of range. */
  INVALID_ARG,
  /** An allocation failed. */
  NOMEM,
  /** open/read/write/fsync/rename failed. */
  IO,
  /** Not a bloom filter, or fields that disagree. */
  FORMAT,
  /** Header or payload checksum mismatch. */
  CHECKSUM,
  /** Written by a newer, incompatible format. */
  VERSION,
  /** The operation does not apply to this filter. */
  UNSUPPORTED,
  /** Two filters whose parameters differ. */
  INCOMPATIBLE,
  /** A size exceeds the library's limits. */
  OVERFLOW,
  /** The output buffer cannot hold the result. */
  BUFFER_TOO_SMALL,
  /** {@code remove} of a key that was never added. */
  NOT_PRESENT,
  /** A code this binding does not know (a newer library). */
  UNKNOWN;

  /**
   * @return the C value: 0, -1, -2, ... in declaration order, as bloom.h
   *     numbers statuses; {@link Integer#MIN_VALUE} for UNKNOWN
   */
  public int code() {
    return this == UNKNOWN ? Integer.MIN_VALUE : -ordinal();
  }

  /**
   * @param code a C status value
   * @return its constant, or {@link #UNKNOWN}
   */
  public static BloomStatus of(int code) {
    BloomStatus s = Names.byCode(values(), BloomStatus::code, code);
    return s == null ? UNKNOWN : s;
  }
}
