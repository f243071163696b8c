// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

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

  /**
   * A kind the loaded library has.
   *
   * @param code its {@code bloom_kind} value
   * @param name the library's name for it
   * @param kind this binding's constant for it; null for a kind newer than the binding
   * @param caps what it can do
   * @param unknownCaps {@code BLOOM_CAP_*} bits this binding has no {@link Capability} for (0 normally)
   */
  public record KindInfo(int code, String name, Kind kind, Set<Capability> caps, int unknownCaps) {}

  /** @return every kind of the loaded library, in increasing {@code bloom_kind} order */
  public static List<KindInfo> kinds() {
    List<KindInfo> out = new ArrayList<>();
    for (int i = 0, n = BloomNative.bloom_kind_count(); i < n; i++) {
      int code = BloomNative.bloom_kind_at(i);
      int caps = BloomNative.bloom_kind_caps(code);
      out.add(new KindInfo(code, BloomNative.text(BloomNative.bloom_kind_name(code)), Kind.of(code),
          Collections.unmodifiableSet(Capability.of(caps)), Capability.unknown(caps)));
    }
    return Collections.unmodifiableList(out);
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

  /** @return sizeof(bloom_options) of the loaded library */
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
