// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/**
 * A call into the C library failed: {@link #status()} is its
 * {@code bloom_status}, {@link #getMessage()} the library's detail
 * ({@code bloom_last_error()}), e.g. {@code "bloom_load: header checksum mismatch ..."}.
 */
public class BloomException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The status as an enum. */
  private final BloomStatus status;
  /** The C status value. */
  private final int code;

  /**
   * @param code the C status (negative)
   * @param message the library's detail
   */
  public BloomException(int code, String message) {
    super(message);
    this.code = code;
    this.status = BloomStatus.of(code);
  }

  /** @return the status as an enum ({@link BloomStatus#UNKNOWN} for a code newer than this binding) */
  public BloomStatus status() {
    return status;
  }

  /** @return the C status value */
  public int code() {
    return code;
  }
}
