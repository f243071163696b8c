// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import com.sun.jna.Memory;

/**
 * Parameters of a new filter, set fluently; anything left unset takes the C
 * library's default ({@code bloom_options_init}): classic, capacity
 * 1,000,000, fpRate 0.01, XXH3, seed 0, optimal m and k.
 *
 * <pre>{@code
 * new FilterOptions().kind(Kind.BLOCKED).capacity(10_000).fpRate(0.001)
 * }</pre>
 *
 * Ranges are the library's to check: a bad value surfaces as a
 * {@link BloomException} with status INVALID_ARG from {@link BloomFilter#BloomFilter(FilterOptions)}.
 * 64-bit members (capacity, seed, bits, windowMs) are unsigned in C and
 * passed bit for bit.
 */
public final class FilterOptions {
  private Kind kind;
  private Long capacity;
  private Double fpRate;
  private HashFunction hash;
  private Long seed;
  private boolean concurrent;
  private boolean plainDoubleHashing;
  private boolean splitBlock;
  private Long bits;
  private Integer hashes;
  private Double growth;
  private Double tightening;
  private Integer counterBits;
  private Long windowMs;

  /** Defaults everywhere. */
  public FilterOptions() {}

  /**
   * @param kind the filter kind
   * @return this
   */
  public FilterOptions kind(Kind kind) {
    this.kind = kind;
    return this;
  }

  /**
   * @param capacity n, expected distinct keys (scalable: the first stage's)
   * @return this
   */
  public FilterOptions capacity(long capacity) {
    this.capacity = capacity;
    return this;
  }

  /**
   * @param fpRate p, the target false-positive rate in (0, 1)
   * @return this
   */
  public FilterOptions fpRate(double fpRate) {
    this.fpRate = fpRate;
    return this;
  }

  /**
   * @param hash the key hasher
   * @return this
   */
  public FilterOptions hash(HashFunction hash) {
    this.hash = hash;
    return this;
  }

  /**
   * @param seed hash seed, part of the filter's identity
   * @return this
   */
  public FilterOptions seed(long seed) {
    this.seed = seed;
    return this;
  }

  /**
   * @param concurrent allow adds from many threads at once (BLOOM_FLAG_CONCURRENT)
   * @return this
   */
  public FilterOptions concurrent(boolean concurrent) {
    this.concurrent = concurrent;
    return this;
  }

  /**
   * @param plain probe by plain h1 + i*h2 double hashing (refused by blocked)
   * @return this
   */
  public FilterOptions plainDoubleHashing(boolean plain) {
    this.plainDoubleHashing = plain;
    return this;
  }

  /**
   * @param split blocked filters only: 32-byte blocks with k = 8 (one SIMD compare per key, more
   *     memory for the same rate; library 0.3.0+)
   * @return this
   */
  public FilterOptions splitBlock(boolean split) {
    this.splitBlock = split;
    return this;
  }

  /**
   * @param bits explicit m (0 = size from capacity and fpRate)
   * @return this
   */
  public FilterOptions bits(long bits) {
    this.bits = bits;
    return this;
  }

  /**
   * @param hashes explicit k (0 = optimal)
   * @return this
   */
  public FilterOptions hashes(int hashes) {
    this.hashes = hashes;
    return this;
  }

  /**
   * @param growth scalable: capacity factor per stage (default 2)
   * @return this
   */
  public FilterOptions growth(double growth) {
    this.growth = growth;
    return this;
  }

  /**
   * @param tightening scalable: error factor per stage (default 0.85)
   * @return this
   */
  public FilterOptions tightening(double tightening) {
    this.tightening = tightening;
    return this;
  }

  /**
   * @param counterBits counting: 4 (default) or 8
   * @return this
   */
  public FilterOptions counterBits(int counterBits) {
    this.counterBits = counterBits;
    return this;
  }

  /**
   * @param windowMs window kind: 0 = a count window of capacity keys, &gt; 0 = a time window of that many ms
   * @return this
   */
  public FilterOptions windowMs(long windowMs) {
    this.windowMs = windowMs;
    return this;
  }

  /** The C struct: the library's defaults, then every member set here. */
  Memory toNative() {
    Memory m = new Memory(Layout.OPTIONS_SIZE);
    m.clear();
    BloomNative.bloom_options_init(Memory.nativeValue(m)); // writes its own <= 104-byte layout
    m.setLong(Layout.O_STRUCT_SIZE, Layout.OPTIONS_SIZE);
    if (kind != null) m.setInt(Layout.O_KIND, kind.code());
    if (capacity != null) m.setLong(Layout.O_CAPACITY, capacity);
    if (fpRate != null) m.setDouble(Layout.O_FP_RATE, fpRate);
    if (hash != null) m.setInt(Layout.O_HASH, hash.code());
    if (seed != null) m.setLong(Layout.O_SEED, seed);
    int flags = (concurrent ? Layout.FLAG_CONCURRENT : 0)
        | (plainDoubleHashing ? Layout.FLAG_PLAIN_DOUBLE_HASHING : 0)
        | (splitBlock ? Layout.FLAG_SPLIT_BLOCK : 0);
    m.setInt(Layout.O_FLAGS, flags);
    if (bits != null) m.setLong(Layout.O_BITS, bits);
    if (hashes != null) m.setInt(Layout.O_HASHES, hashes);
    if (growth != null) m.setDouble(Layout.O_GROWTH, growth);
    if (tightening != null) m.setDouble(Layout.O_TIGHTENING, tightening);
    if (counterBits != null) m.setInt(Layout.O_COUNTER_BITS, counterBits);
    m.setLong(Layout.O_WINDOW_MS, windowMs == null ? 0 : windowMs);
    return m;
  }
}
