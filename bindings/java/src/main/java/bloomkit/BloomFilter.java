// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import com.sun.jna.Memory;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.List;
import java.util.function.LongToIntFunction;

/**
 * A Bloom filter backed by one C {@code bloom_filter}: a set that may answer
 * "maybe" ({@code true}) for keys never added, at about the false-positive
 * rate it was sized for, but never answers {@code false} for a key that was
 * added.
 *
 * <pre>{@code
 * try (BloomFilter f = new BloomFilter(new FilterOptions().capacity(10_000).fpRate(0.001))) {
 *   f.add("alice");
 *   f.contains("alice"); // true
 *   f.save("users.bloom");
 * }
 * }</pre>
 *
 * <p>Keys are {@code byte[]} or {@code String} (hashed as UTF-8). Failures
 * of the C library throw {@link BloomException} carrying its status and
 * message; misuse the binding sees itself throws the usual Java exceptions.
 *
 * <p><b>Ownership.</b> Release the C memory with {@link #close()} (or
 * try-with-resources); a filter that becomes unreachable unclosed is
 * released by a {@link Cleaner}. Calls after close throw
 * {@link IllegalStateException}.
 *
 * <p><b>Thread safety</b>, as {@code bloom.h} states it: any number of
 * threads may call the read-only methods ({@code contains},
 * {@code containsAll}, {@code info}, {@code serialize}, {@code save},
 * {@code copy}) at once. Methods that modify the filter need exclusive
 * access, except {@code add}, {@code addAll} and {@code testAndAdd} on a
 * filter created with {@link FilterOptions#concurrent(boolean)} (classic,
 * partitioned, blocked and counting kinds; counting also {@code remove}),
 * which may run from many threads at once alongside {@code contains} and
 * {@code containsAll}. {@code info}, {@code stageInfo}, {@code serialize},
 * {@code save}, {@code copy} and the argument of {@code merge}/{@code intersect}
 * read the filter without atomics: call them once concurrent writers have
 * finished. {@code close} must not run alongside any other call.
 */
public final class BloomFilter implements AutoCloseable {
  private static final Cleaner CLEANER = Cleaner.create();
  /** Filters not yet released, for the tests that the Cleaner frees dropped ones. */
  static final java.util.concurrent.atomic.AtomicLong OPEN = new java.util.concurrent.atomic.AtomicLong();

  /** The handle, separate from the filter so the Cleaner can free it without reaching the filter. */
  private static final class Handle implements Runnable {
    volatile long ptr;

    Handle(long ptr) {
      this.ptr = ptr;
    }

    @Override
    public void run() {
      long p = ptr;
      ptr = 0;
      if (p != 0) {
        BloomNative.bloom_destroy(p);
        OPEN.decrementAndGet();
      }
    }
  }

  private final Handle handle;
  private final Cleaner.Cleanable cleanable;

  /**
   * Create an empty filter.
   *
   * @param options parameters (unset ones take the library's defaults)
   * @throws BloomException INVALID_ARG, OVERFLOW, NOMEM, UNSUPPORTED as {@code bloom_create}
   */
  public BloomFilter(FilterOptions options) {
    this(create(options));
  }

  /** A classic filter with the library's defaults (n = 1,000,000, p = 0.01). */
  public BloomFilter() {
    this(new FilterOptions());
  }

  private BloomFilter(long ptr) {
    handle = new Handle(ptr);
    OPEN.incrementAndGet();
    cleanable = CLEANER.register(this, handle);
  }

  private static long create(FilterOptions options) {
    if (options == null) throw new NullPointerException("options");
    long[] out = new long[1];
    try (Memory m = options.toNative()) {
      BloomNative.check(BloomNative.bloom_create(Memory.nativeValue(m), out));
    }
    return out[0];
  }

  /**
   * Read a file written by {@link #save} (or any bloom user: C, the CLI, Python...).
   *
   * @param path the file
   * @return a new filter
   * @throws BloomException IO, FORMAT, CHECKSUM, VERSION, ...
   */
  public static BloomFilter load(String path) {
    long[] out = new long[1];
    BloomNative.check(BloomNative.bloom_load(BloomNative.path(path), out));
    return new BloomFilter(out[0]);
  }

  /**
   * Map a saved file read-only and query it in place (zero copy; shared by
   * every process mapping it). Writes throw BloomException UNSUPPORTED.
   *
   * @param path the file
   * @return a read-only filter
   */
  public static BloomFilter map(String path) {
    long[] out = new long[1];
    BloomNative.check(BloomNative.bloom_map(BloomNative.path(path), out));
    return new BloomFilter(out[0]);
  }

  /**
   * Build a filter from an image made by {@link #serialize()} (or a saved file's bytes).
   *
   * @param image the bytes
   * @return a new filter
   */
  public static BloomFilter deserialize(byte[] image) {
    if (image == null) throw new NullPointerException("image");
    long[] out = new long[1];
    try (Memory m = new Memory(Math.max(image.length, 1))) {
      m.write(0, image, 0, image.length);
      BloomNative.check(BloomNative.bloom_deserialize(Memory.nativeValue(m), image.length, out));
    }
    return new BloomFilter(out[0]);
  }

  /** Release the C filter now; a second call does nothing. */
  @Override
  public void close() {
    cleanable.clean();
  }

  /** @return true once {@link #close()} has run */
  public boolean isClosed() {
    return handle.ptr == 0;
  }

  private long h() {
    long p = handle.ptr;
    if (p == 0) throw new IllegalStateException("bloomkit: the filter is closed");
    return p;
  }

  /** The C calls taking one key (FastNative, JNI): f, the key's bytes, its length. */
  private interface KeyCall {
    int call(long f, byte[] key, int len);
  }

  /** One key, read by JNI from the array. */
  private int single(KeyCall c, byte[] key) {
    if (key == null) throw new NullPointerException("key");
    try {
      return FastNative.check(c.call(h(), key, key.length));
    } finally {
      Reference.reachabilityFence(this); // no Cleaner run while C holds the handle
    }
  }

  /** One String key, encoded into this thread's batch array (no garbage a call). */
  private int single(KeyCall c, String key) {
    Batch b = Batch.of(key);
    try {
      return FastNative.check(c.call(h(), b.bytes, b.ends[0]));
    } finally {
      b.release();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Add a key.
   *
   * @param key the key's bytes
   */
  public void add(byte[] key) {
    single(FastNative::add, key);
  }

  /** @param key a key, hashed as its UTF-8 bytes */
  public void add(String key) {
    single(FastNative::add, key);
  }

  /**
   * @param key the key's bytes
   * @return true if the key may have been added, false if it certainly was not
   */
  public boolean contains(byte[] key) {
    return single(FastNative::query, key) == 1;
  }

  /**
   * @param key a key (UTF-8)
   * @return as {@link #contains(byte[])}
   */
  public boolean contains(String key) {
    return single(FastNative::query, key) == 1;
  }

  /**
   * Add the key and report whether it may have been present before.
   *
   * @param key the key's bytes
   * @return false if it was certainly new
   */
  public boolean testAndAdd(byte[] key) {
    return single(FastNative::testAndAdd, key) == 1;
  }

  /**
   * @param key a key (UTF-8)
   * @return as {@link #testAndAdd(byte[])}
   */
  public boolean testAndAdd(String key) {
    return single(FastNative::testAndAdd, key) == 1;
  }

  /**
   * Counting filters: remove one occurrence of an added key.
   *
   * @param key the key's bytes
   * @throws BloomException NOT_PRESENT when the filter shows it was never added; UNSUPPORTED for other kinds
   */
  public void remove(byte[] key) {
    single(FastNative::remove, key);
  }

  /** @param key a key (UTF-8) */
  public void remove(String key) {
    single(FastNative::remove, key);
  }

  private void addBatch(Batch b) {
    try {
      FastNative.check(FastNative.addBatch(h(), b.bytes, b.ends, b.count));
    } finally {
      b.release();
      Reference.reachabilityFence(this);
    }
  }

  private boolean[] queryBatch(Batch b) {
    try {
      boolean[] answers = new boolean[b.count];
      FastNative.check(FastNative.queryBatch(h(), b.bytes, b.ends, b.count, answers));
      return answers;
    } finally {
      b.release();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Add every key in one C call.
   *
   * @param keys byte[] or String elements
   * @throws IllegalArgumentException for an element of another type
   */
  public void addAll(List<?> keys) {
    addBatch(Batch.of(keys));
  }

  /** @param keys keys' bytes, added in one C call */
  public void addAll(byte[]... keys) {
    addBatch(Batch.of(keys));
  }

  /** @param keys keys (UTF-8), added in one C call */
  public void addAll(String... keys) {
    addBatch(Batch.of(keys));
  }

  /**
   * {@link #contains} for every key in one C call.
   *
   * @param keys byte[] or String elements
   * @return answers[i] for keys.get(i)
   */
  public boolean[] containsAll(List<?> keys) {
    return queryBatch(Batch.of(keys));
  }

  /**
   * @param keys keys' bytes
   * @return answers in order
   */
  public boolean[] containsAll(byte[]... keys) {
    return queryBatch(Batch.of(keys));
  }

  /**
   * @param keys keys (UTF-8)
   * @return answers in order
   */
  public boolean[] containsAll(String... keys) {
    return queryBatch(Batch.of(keys));
  }

  /**
   * this := this UNION other. Both must have equal parameters.
   *
   * @param other a filter (may be this)
   * @throws BloomException INCOMPATIBLE naming the first parameter that differs
   */
  public void merge(BloomFilter other) {
    withOther(other, BloomNative::bloom_merge);
  }

  /**
   * this := this INTERSECT other (same rules as merge).
   *
   * @param other a filter
   */
  public void intersect(BloomFilter other) {
    withOther(other, BloomNative::bloom_intersect);
  }

  /** A C call on this filter's handle: its status checked, this filter kept reachable until it returns. */
  private void call(LongToIntFunction c) {
    try {
      BloomNative.check(c.applyAsInt(h()));
    } finally {
      Reference.reachabilityFence(this); // no Cleaner run while C holds the handle
    }
  }

  private interface PairCall {
    int call(long dst, long src);
  }

  /** call() for a C call on this filter and another. */
  private void withOther(BloomFilter other, PairCall c) {
    try {
      BloomNative.check(c.call(h(), other.h()));
    } finally {
      Reference.reachabilityFence(this);
      Reference.reachabilityFence(other);
    }
  }

  /** Empty the filter, keeping its parameters (scalable: back to one stage). */
  public void clear() {
    call(BloomNative::bloom_clear);
  }

  /** @return a deep, independent, writable copy (a copy of a mapped filter is in memory) */
  public BloomFilter copy() {
    long[] out = new long[1];
    call(h -> BloomNative.bloom_clone(h, out));
    return new BloomFilter(out[0]);
  }

  /**
   * Write the file atomically (a temporary file, fsync, rename).
   *
   * @param path the file
   * @throws BloomException IO
   */
  public void save(String path) {
    byte[] p = BloomNative.path(path);
    call(h -> BloomNative.bloom_save(h, p));
  }

  /** @return the number of bytes {@link #serialize()} returns */
  public long serializedSize() {
    long[] size = new long[1];
    call(h -> BloomNative.bloom_serialized_size(h, size));
    return size[0];
  }

  /**
   * @return the file image (format v1): what {@link #save} writes
   * @throws BloomException OVERFLOW for an image of 2 GiB or more (a Java array's limit)
   */
  public byte[] serialize() {
    try {
      long size = serializedSize();
      if (size > Integer.MAX_VALUE - 8) {
        throw new BloomException(BloomStatus.OVERFLOW.code(),
            "serialize: the image (" + size + " bytes) does not fit in a Java array; use save()");
      }
      long[] written = new long[1];
      try (Memory m = new Memory(Math.max(size, 1))) {
        BloomNative.check(BloomNative.bloom_serialize(h(), Memory.nativeValue(m), size, written));
        return m.getByteArray(0, (int) written[0]);
      }
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** @return parameters and fill */
  public FilterInfo info() {
    try (Memory m = infoStruct()) {
      BloomNative.check(BloomNative.bloom_get_info(h(), Memory.nativeValue(m)));
      return FilterInfo.read(m);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * @param stage 0 = the oldest stage of a scalable filter; other kinds have only stage 0
   * @return that stage's info
   * @throws BloomException INVALID_ARG for a stage past the last
   */
  public FilterInfo stageInfo(int stage) {
    if (stage < 0) throw new IllegalArgumentException("stage must be >= 0");
    try (Memory m = infoStruct()) {
      BloomNative.check(BloomNative.bloom_get_stage_info(h(), stage, Memory.nativeValue(m)));
      return FilterInfo.read(m);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private static Memory infoStruct() {
    Memory m = new Memory(Layout.INFO_SIZE);
    m.clear();
    m.setLong(Layout.I_STRUCT_SIZE, Layout.INFO_SIZE);
    return m;
  }

  /**
   * Window kind: move the window to {@code nowMs} (keys older than the time
   * window expire).
   *
   * @param nowMs the time in ms (unsigned)
   * @throws UnsupportedOperationException when the library has no {@code bloom_advance}
   */
  public void advance(long nowMs) {
    if (!WindowNative.AVAILABLE) {
      throw new UnsupportedOperationException("bloomkit: this libbloomfilter has no bloom_advance (the window kind)");
    }
    call(h -> WindowNative.bloom_advance(h, nowMs));
  }
}
