// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.util.Set;

/**
 * Filter kinds ({@code bloom_kind}); see docs/choosing.md. What a kind can do
 * is the library's to say: ask {@link #caps()} rather than comparing kinds.
 */
public enum Kind implements CValue {
  /** One bit array, k probes anywhere in it (the default). */
  CLASSIC,
  /** k slices of m/k bits, probe i in slice i. */
  PARTITIONED,
  /** All k probes inside one 64-byte cache line: fastest. */
  BLOCKED,
  /** Small counters instead of bits: supports {@link BloomFilter#remove}. */
  COUNTING,
  /** A growing chain of filters (Almeida et al. 2007). */
  SCALABLE,
  /**
   * A sliding window of recent keys: a count window of {@code capacity} keys,
   * or a time window of {@code windowMs} ms moved by {@link BloomFilter#advance}.
   */
  WINDOW;

  /** @return what the loaded library says this kind can do (empty if it lacks the kind) */
  public Set<Capability> caps() {
    return Capability.of(BloomNative.bloom_kind_caps(code()));
  }

  /**
   * @param code a C value
   * @return its constant, or null if unknown
   */
  public static Kind of(int code) {
    return Names.byCode(values(), Kind::code, code);
  }

  /**
   * @param label "classic", "partitioned", ...
   * @return its constant
   * @throws IllegalArgumentException for an unknown name
   */
  public static Kind fromLabel(String label) {
    return Names.byLabel(values(), label, "kind");
  }
}
