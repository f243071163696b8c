// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/** Filter kinds ({@code bloom_kind}); see docs/choosing.md. */
public enum Kind {
  /** One bit array, k probes anywhere in it (the default). */
  CLASSIC(1, "classic"),
  /** k slices of m/k bits, probe i in slice i. */
  PARTITIONED(2, "partitioned"),
  /** All k probes inside one 64-byte cache line: fastest. */
  BLOCKED(3, "blocked"),
  /** Small counters instead of bits: supports {@link BloomFilter#remove}. */
  COUNTING(4, "counting"),
  /** A growing chain of filters (Almeida et al. 2007). */
  SCALABLE(5, "scalable"),
  /**
   * A sliding window of recent keys: a count window of {@code capacity} keys,
   * or a time window of {@code windowMs} ms moved by {@link BloomFilter#advance}.
   * Only with a library that has it ({@link Bloom#hasWindowKind()}).
   */
  WINDOW(6, "window");

  private final int code;
  private final String label;

  Kind(int code, String label) {
    this.code = code;
    this.label = label;
  }

  /** @return the C value */
  public int code() {
    return code;
  }

  /** @return the library's name for it ("classic", ...) */
  public String label() {
    return label;
  }

  /**
   * @param code a C value
   * @return its kind, or null if unknown
   */
  public static Kind of(int code) {
    for (Kind k : values()) {
      if (k.code == code) return k;
    }
    return null;
  }

  /**
   * @param label "classic", "partitioned", ...
   * @return its kind
   * @throws IllegalArgumentException for an unknown name
   */
  public static Kind fromLabel(String label) {
    for (Kind k : values()) {
      if (k.label.equals(label)) return k;
    }
    throw new IllegalArgumentException("unknown kind \"" + label + "\"");
  }
}
