// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/** Library-wide calls: versions, sizing math, what the loaded library offers. */
public final class Bloom {
  private Bloom() {}

  /**
   * m and k for a classic filter.
   *
   * @param bits m
   * @param hashes k
   */
  public record Params(long bits, int hashes) {}

  /** @return the loaded library's version, e.g. "0.3.0" */
  public static String version() {
    return BloomNative.text(BloomNative.bloom_version_string());
  }

  /** @return MAJOR * 10000 + MINOR * 100 + PATCH of the loaded library */
  public static int versionNumber() {
    return BloomNative.bloom_version_number();
  }

  /**
   * m and k for n keys at false-positive rate p, as a classic filter is sized.
   *
   * @param n keys
   * @param p rate in (0, 1)
   * @return bits and hashes
   * @throws BloomException INVALID_ARG, OVERFLOW
   */
  public static Params optimalParams(long n, double p) {
    long[] bits = new long[1];
    int[] hashes = new int[1];
    BloomNative.check(BloomNative.bloom_optimal_params(n, p, bits, hashes));
    return new Params(bits[0], hashes[0]);
  }

  /**
   * The classic filter's false-positive rate after n keys in m bits with k hashes.
   *
   * @param n keys
   * @param bits m
   * @param hashes k
   * @return the rate, NaN when bits or hashes is 0
   */
  public static double expectedFpRate(long n, long bits, int hashes) {
    return BloomNative.bloom_expected_fp_rate(n, bits, hashes);
  }

  /**
   * @param status a C status
   * @return the library's description of it
   */
  public static String describe(int status) {
    return BloomNative.text(BloomNative.bloom_strerror(status));
  }

  /** @return sizeof(bloom_options) of the loaded library (the binding passes 104) */
  public static long optionsSize() {
    return BloomNative.bloom_options_size();
  }

  /** @return sizeof(bloom_info) of the loaded library */
  public static long infoSize() {
    return BloomNative.bloom_info_size();
  }

  /** @return whether the loaded library has the window kind (bloom_advance and window_ms) */
  public static boolean hasWindowKind() {
    return WindowNative.AVAILABLE && optionsSize() >= Layout.OPTIONS_SIZE;
  }
}
