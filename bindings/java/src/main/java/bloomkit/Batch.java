// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.util.List;
import java.util.RandomAccess;

/**
 * Keys of a batch call packed as {@link FastNative} takes them: every key's
 * bytes in one byte[], and an int[] of where each ends. Each thread reuses
 * its own arrays, so a batch allocates nothing (String keys are encoded
 * straight into them, {@link Utf8}).
 */
final class Batch {
  private static final ThreadLocal<Batch> SCRATCH = ThreadLocal.withInitial(Batch::new);
  /** Arrays beyond this are dropped after the call instead of kept per thread. */
  private static final int KEEP = 16 << 20;

  byte[] bytes = new byte[16 << 10];
  int[] ends = new int[1024];
  int count;
  private int at;

  private Batch() {}

  static Batch of(List<?> keys) {
    Batch b = SCRATCH.get().start(keys.size());
    if (keys instanceof RandomAccess) {
      // get(i): an ArrayList's or Arrays.asList's subList iterator checks
      // its modCount through two wrappers a key, a fifth of a batch's time.
      for (int i = 0; i < b.count; i++) b.put(keys.get(i), i);
      return b;
    }
    int i = 0;
    for (Object key : keys) {
      if (i == b.count) throw new java.util.ConcurrentModificationException("keys changed size during the call");
      b.put(key, i++);
    }
    if (i != b.count) throw new java.util.ConcurrentModificationException("keys changed size during the call");
    return b;
  }

  static Batch of(byte[][] keys) {
    Batch b = SCRATCH.get().start(keys.length);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == null) throw new NullPointerException("keys[" + i + "]");
      b.put(keys[i], i);
    }
    return b;
  }

  static Batch of(String[] keys) {
    Batch b = SCRATCH.get().start(keys.length);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == null) throw new NullPointerException("keys[" + i + "]");
      b.put(keys[i], i);
    }
    return b;
  }

  /** One String key's UTF-8, for the single-key calls: bytes[0, ends[0]). */
  static Batch of(String key) {
    if (key == null) throw new NullPointerException("key");
    Batch b = SCRATCH.get().start(1);
    b.put(key, 0);
    return b;
  }

  private Batch start(int n) {
    if (ends.length < n) ends = new int[Math.max(n, ends.length * 2)];
    count = n;
    at = 0;
    return this;
  }

  private void put(byte[] key, int i) {
    int len = key.length;
    if (len > bytes.length - at) grow(len);
    System.arraycopy(key, 0, bytes, at, len);
    at += len;
    ends[i] = at;
  }

  private void put(Object key, int i) {
    if (key instanceof String s) put(s, i);
    else put(Keys.bytes(key, i), i);
  }

  private void put(String key, int i) {
    long room = Utf8.maxBytes(key.length());
    if (room > bytes.length - at) grow(room);
    at = Utf8.encode(key, bytes, at);
    ends[i] = at;
  }

  private void grow(long more) {
    // Offsets are ints: 2 GiB of key bytes a batch (a JVM array's limit too).
    if (more > Integer.MAX_VALUE - 8 - at) {
      throw new IllegalArgumentException("a batch is limited to 2 GiB of key bytes; split it");
    }
    long want = Math.max((long) at + more, Math.min(bytes.length * 2L, Integer.MAX_VALUE - 8));
    bytes = java.util.Arrays.copyOf(bytes, (int) want);
  }

  /** Drop arrays too large to keep for this thread's next batch. */
  void release() {
    if (bytes.length > KEEP) bytes = new byte[16 << 10];
    if (ends.length * 4L > KEEP) ends = new int[1024];
  }
}
