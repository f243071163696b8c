// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import com.sun.jna.Memory;

/**
 * A filter's parameters and fill ({@code bloom_get_info}; for one stage,
 * {@code bloom_get_stage_info}). Unsigned 64-bit C members are Java longs
 * bit for bit ({@link Long#toUnsignedString(long)} to print a seed).
 *
 * @param kind the kind (null for a kind newer than this binding: see kindCode)
 * @param kindCode the C kind value
 * @param hash the hasher (null if unknown)
 * @param seed the hash seed
 * @param concurrent created with BLOOM_FLAG_CONCURRENT
 * @param plainDoubleHashing created with BLOOM_FLAG_PLAIN_DOUBLE_HASHING
 * @param splitBlock created with BLOOM_FLAG_SPLIT_BLOCK (32-byte blocks, k = 8)
 * @param hashes k (scalable: of the newest stage)
 * @param bits m: bits or counters (scalable: all stages)
 * @param bytes memory of the bit or counter arrays
 * @param capacity n the filter was sized for
 * @param fpRate p the filter was sized for (0 if given m and k)
 * @param keysAdded successful adds (duplicates count again; counting: minus removes)
 * @param estimatedKeys distinct keys estimated from the fill
 * @param fillRatio fraction of bits (counters) set
 * @param expectedFpRate the false-positive rate now
 * @param stages scalable: the number of stages; others 1
 * @param counterBits counting: 4 or 8; others 1
 * @param growth scalable: capacity factor per stage; others 0
 * @param tightening scalable: error factor per stage; others 0
 * @param readOnly a filter from {@link BloomFilter#map}
 * @param formatMajor the file format's major version save writes
 * @param formatMinor its minor version
 */
public record FilterInfo(
    Kind kind,
    int kindCode,
    HashFunction hash,
    long seed,
    boolean concurrent,
    boolean plainDoubleHashing,
    boolean splitBlock,
    int hashes,
    long bits,
    long bytes,
    long capacity,
    double fpRate,
    long keysAdded,
    double estimatedKeys,
    double fillRatio,
    double expectedFpRate,
    int stages,
    int counterBits,
    double growth,
    double tightening,
    boolean readOnly,
    int formatMajor,
    int formatMinor) {

  static FilterInfo read(Memory m) {
    int flags = m.getInt(Layout.I_FLAGS);
    int kindCode = m.getInt(Layout.I_KIND);
    return new FilterInfo(
        Kind.of(kindCode),
        kindCode,
        HashFunction.of(m.getInt(Layout.I_HASH)),
        m.getLong(Layout.I_SEED),
        (flags & Layout.FLAG_CONCURRENT) != 0,
        (flags & Layout.FLAG_PLAIN_DOUBLE_HASHING) != 0,
        (flags & Layout.FLAG_SPLIT_BLOCK) != 0,
        m.getInt(Layout.I_HASHES),
        m.getLong(Layout.I_BITS),
        m.getLong(Layout.I_BYTES),
        m.getLong(Layout.I_CAPACITY),
        m.getDouble(Layout.I_FP_RATE),
        m.getLong(Layout.I_KEYS_ADDED),
        m.getDouble(Layout.I_ESTIMATED_KEYS),
        m.getDouble(Layout.I_FILL_RATIO),
        m.getDouble(Layout.I_EXPECTED_FP_RATE),
        m.getInt(Layout.I_STAGES),
        m.getInt(Layout.I_COUNTER_BITS),
        m.getDouble(Layout.I_GROWTH),
        m.getDouble(Layout.I_TIGHTENING),
        m.getInt(Layout.I_READ_ONLY) != 0,
        m.getShort(Layout.I_FORMAT_MAJOR) & 0xffff,
        m.getShort(Layout.I_FORMAT_MINOR) & 0xffff);
  }
}
