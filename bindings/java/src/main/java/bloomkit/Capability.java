// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a kind can do ({@code BLOOM_CAP_*}), as the library says: see
 * {@link Kind#caps()} and {@link Bloom#kinds()}. Code that needs, say, a
 * kind that can remove keys asks for {@link #REMOVE} instead of naming
 * {@link Kind#COUNTING}.
 */
public enum Capability {
  /** {@link BloomFilter#merge}. */
  MERGE,
  /** {@link BloomFilter#intersect}; scalable filters only while both have one stage. */
  INTERSECT,
  /** {@link BloomFilter#remove}. */
  REMOVE,
  /** Grows past its capacity, keeping its false-positive rate. */
  GROWS,
  /** Forgets old keys on a schedule and keeps a clock ({@link BloomFilter#advance}). */
  FORGETS,
  /** Takes {@link FilterOptions#splitBlock}. */
  SPLIT_BLOCK,
  /** Takes {@link HashFunction#REDISBLOOM}. */
  REDISBLOOM_HASH,
  /** Takes {@link FilterOptions#concurrent}. */
  CONCURRENT;

  /** @return its {@code BLOOM_CAP_*} bit: 1, 2, 4, ... in declaration order, as bloom.h's */
  public int bit() {
    return 1 << ordinal();
  }

  /**
   * @param bits {@code BLOOM_CAP_*} bits
   * @return the capabilities among them
   */
  public static Set<Capability> of(int bits) {
    Set<Capability> out = EnumSet.noneOf(Capability.class);
    for (Capability c : values()) {
      if ((bits & c.bit()) != 0) out.add(c);
    }
    return out;
  }

  /**
   * @param bits {@code BLOOM_CAP_*} bits
   * @return those this binding has no constant for (from a newer library); 0 normally
   */
  public static int unknown(int bits) {
    for (Capability c : values()) bits &= ~c.bit();
    return bits;
  }
}
