// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Keys of a batch call laid out as the C batch functions take them: all
 * bytes in one native block, a pointer and a length per key. Each thread
 * reuses its own blocks, written through direct ByteBuffer views (a JVM
 * copy, no JNI call per key; a JNI Memory.write per key cost about as much
 * as the C add itself).
 */
final class Batch {
  private static final ThreadLocal<Batch> SCRATCH = ThreadLocal.withInitial(Batch::new);
  /** Blocks beyond this are freed after the call instead of kept per thread. */
  private static final long KEEP = 16L << 20;

  private Memory bytes;
  private Memory ptrs;
  private Memory lens;
  private Memory results;
  private ByteBuffer bytesView;
  private LongBuffer ptrsView;
  private LongBuffer lensView;
  private byte[] stage = new byte[4096];
  private long[] ptrStage = new long[1024];
  private long[] lenStage = new long[1024];
  int count;

  static Batch of(List<?> keys) {
    Batch b = SCRATCH.get();
    int n = keys.size();
    byte[][] raw = new byte[n][];
    long total = 0;
    for (int i = 0; i < n; i++) {
      raw[i] = Keys.bytes(keys.get(i), i);
      total += raw[i].length;
    }
    b.fill(raw, total);
    return b;
  }

  static Batch of(byte[][] keys) {
    Batch b = SCRATCH.get();
    long total = 0;
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == null) throw new NullPointerException("keys[" + i + "]");
      total += keys[i].length;
    }
    b.fill(keys, total);
    return b;
  }

  static Batch of(String[] keys) {
    byte[][] raw = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == null) throw new NullPointerException("keys[" + i + "]");
      raw[i] = keys[i].getBytes(StandardCharsets.UTF_8);
    }
    return of(raw);
  }

  private void fill(byte[][] keys, long total) {
    int n = keys.length;
    // ByteBuffer views index by int: 2 GiB of key bytes, 2^28 keys a batch.
    if (total > Integer.MAX_VALUE || n > (1 << 28)) {
      throw new IllegalArgumentException("a batch is limited to 2^28 keys and 2 GiB of key bytes; split it");
    }
    count = n;
    if (bytes == null || bytes.size() < Math.max(total, 1)) {
      bytes = new Memory(Math.max(Math.max(total, 1), 4096));
      bytesView = bytes.getByteBuffer(0, bytes.size());
    }
    long slots = Math.max((long) n * 8, 8);
    if (ptrs == null || ptrs.size() < slots) {
      ptrs = new Memory(Math.max(slots, 8 * 1024));
      lens = new Memory(ptrs.size());
      results = new Memory(ptrs.size() / 8);
      ptrsView = ptrs.getByteBuffer(0, ptrs.size()).order(ByteOrder.nativeOrder()).asLongBuffer();
      lensView = lens.getByteBuffer(0, lens.size()).order(ByteOrder.nativeOrder()).asLongBuffer();
    }
    // Staged in Java arrays (System.arraycopy and plain stores, JIT-compiled
    // to moves), then three bulk copies: per-key ByteBuffer/LongBuffer puts
    // cost 30-40 ns a key, about a C add's worth.
    if (stage.length < total) stage = new byte[(int) Math.max(total, stage.length * 2L)];
    if (ptrStage.length < n) {
      ptrStage = new long[Math.max(n, ptrStage.length * 2)];
      lenStage = new long[ptrStage.length];
    }
    long base = Memory.nativeValue(bytes);
    int at = 0;
    for (int i = 0; i < n; i++) {
      byte[] k = keys[i];
      System.arraycopy(k, 0, stage, at, k.length);
      ptrStage[i] = base + at;
      lenStage[i] = k.length;
      at += k.length;
    }
    bytesView.clear();
    bytesView.put(stage, 0, at);
    ptrsView.clear();
    ptrsView.put(ptrStage, 0, n);
    lensView.clear();
    lensView.put(lenStage, 0, n);
  }

  long ptrs() {
    return Memory.nativeValue(ptrs);
  }

  long lens() {
    return Memory.nativeValue(lens);
  }

  long results() {
    return Memory.nativeValue(results);
  }

  boolean[] answers() {
    byte[] raw = results.getByteArray(0, count);
    boolean[] out = new boolean[count];
    for (int i = 0; i < count; i++) out[i] = raw[i] == 1;
    return out;
  }

  /** Drop blocks too large to keep for this thread's next batch. */
  void release() {
    if (bytes != null && bytes.size() > KEEP) {
      bytes.close();
      bytes = null;
      bytesView = null;
    }
    if (ptrs != null && ptrs.size() > KEEP) {
      ptrs.close();
      lens.close();
      results.close();
      ptrs = lens = results = null;
      ptrsView = lensView = null;
    }
    if (stage.length > KEEP) stage = new byte[4096];
    if (ptrStage.length * 8L > KEEP) {
      ptrStage = new long[1024];
      lenStage = new long[1024];
    }
  }
}
