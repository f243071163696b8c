// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/** Key hashers ({@code bloom_hash}). */
public enum HashFunction {
  /** XXH3-128 (the default, fastest). */
  XXH3(1, "xxh3"),
  /** MurmurHash3 x64-128. */
  MURMUR3(2, "murmur3"),
  /** FNV-1a 64, widened by a mixer. */
  FNV1A(3, "fnv1a"),
  /** RedisBloom's hashing: classic and scalable filters only (library 0.3.0+). */
  REDISBLOOM(4, "redisbloom");

  private final int code;
  private final String label;

  HashFunction(int code, String label) {
    this.code = code;
    this.label = label;
  }

  /** @return the C value */
  public int code() {
    return code;
  }

  /** @return the library's name for it */
  public String label() {
    return label;
  }

  /**
   * @param code a C value
   * @return its hasher, or null if unknown
   */
  public static HashFunction of(int code) {
    for (HashFunction h : values()) {
      if (h.code == code) return h;
    }
    return null;
  }

  /**
   * @param label "xxh3", "murmur3", "fnv1a" or "redisbloom"
   * @return its hasher
   * @throws IllegalArgumentException for an unknown name
   */
  public static HashFunction fromLabel(String label) {
    for (HashFunction h : values()) {
      if (h.label.equals(label)) return h;
    }
    throw new IllegalArgumentException("unknown hash \"" + label + "\"");
  }
}
