// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/** The C library's {@code bloom_status} codes, pinned forever by {@code bloom.h}. */
public enum BloomStatus {
  /** Success. */
  OK(0),
  /** A NULL pointer or a value out of range. */
  INVALID_ARG(-1),
  /** An allocation failed. */
  NOMEM(-2),
  /** open/read/write/fsync/rename failed. */
  IO(-3),
  /** Not a bloom filter, or fields that disagree. */
  FORMAT(-4),
  /** Header or payload checksum mismatch. */
  CHECKSUM(-5),
  /** Written by a newer, incompatible format. */
  VERSION(-6),
  /** The operation does not apply to this filter. */
  UNSUPPORTED(-7),
  /** Two filters whose parameters differ. */
  INCOMPATIBLE(-8),
  /** A size exceeds the library's limits. */
  OVERFLOW(-9),
  /** The output buffer cannot hold the result. */
  BUFFER_TOO_SMALL(-10),
  /** {@code remove} of a key that was never added. */
  NOT_PRESENT(-11),
  /** A code this binding does not know (a newer library). */
  UNKNOWN(Integer.MIN_VALUE);

  private final int code;

  BloomStatus(int code) {
    this.code = code;
  }

  /** @return the C value */
  public int code() {
    return code;
  }

  /**
   * @param code a C status value
   * @return its constant, or {@link #UNKNOWN}
   */
  public static BloomStatus of(int code) {
    for (BloomStatus s : values()) {
      if (s.code == code) return s;
    }
    return UNKNOWN;
  }
}
