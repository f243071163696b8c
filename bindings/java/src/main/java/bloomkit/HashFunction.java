// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/** Key hashers ({@code bloom_hash}). */
public enum HashFunction implements CValue {
  /** XXH3-128 (the default, fastest). */
  XXH3,
  /** MurmurHash3 x64-128. */
  MURMUR3,
  /** FNV-1a 64, widened by a mixer. */
  FNV1A,
  /** RedisBloom's hashing: kinds with {@link Capability#REDISBLOOM_HASH} only. */
  REDISBLOOM;

  /**
   * @param code a C value
   * @return its constant, or null if unknown
   */
  public static HashFunction of(int code) {
    return Names.byCode(values(), HashFunction::code, code);
  }

  /**
   * @param label "xxh3", "murmur3", "fnv1a" or "redisbloom"
   * @return its constant
   * @throws IllegalArgumentException for an unknown name
   */
  public static HashFunction fromLabel(String label) {
    return Names.byLabel(values(), label, "hash");
  }
}
