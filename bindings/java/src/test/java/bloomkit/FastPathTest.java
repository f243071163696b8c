// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

/**
 * The JNI key paths (FastNative) and their packing (Batch, Utf8): every
 * edge where they differ from the plain C calls through JNA, checked
 * against a filter built key by key through {@code bloom_add} (BloomNative).
 */
public class FastPathTest {
  /** Strings whose UTF-8 is every encoder branch: 1-4 bytes, lone surrogates, NUL, empty. */
  static final String[] AWKWARD = {
    "", "a", "\0", "caf\u00e9", "\u00ff\u0100", "\u07ff\u0800", "\uffff", "\ud83d\ude00", "x\ud83d", "\ude00y",
    "\ud83d\ud83d\ude00", "\ude00\ud83d", "\u20ac\u00e9a\ud800", "k\u0000\u0080\u07ff\u0800\uffff"
  };

  @Test
  public void utf8MatchesGetBytes() {
    StringBuilder random = new StringBuilder();
    java.util.Random r = new java.util.Random(26);
    for (int i = 0; i < 5000; i++) random.append((char) r.nextInt(0x10000));
    List<String> all = new ArrayList<>(Arrays.asList(AWKWARD));
    all.add(random.toString());
    for (String s : all) {
      byte[] want = s.getBytes(StandardCharsets.UTF_8);
      byte[] got = new byte[(int) Utf8.maxBytes(s.length()) + 2];
      got[0] = 42;
      int end = Utf8.encode(s, got, 1);
      assertEquals(s, want.length, end - 1);
      assertEquals(42, got[0]);
      assertArrayEquals(s, want, Arrays.copyOfRange(got, 1, end));
    }
  }

  /** A filter built by bloom_add through JNA, the reference for the JNI paths. */
  private static byte[] referenceImage(List<byte[]> keys) {
    try (BloomFilter f = new BloomFilter(new FilterOptions().capacity(5000).fpRate(0.01).seed(3))) {
      long h = handleOf(f);
      for (byte[] k : keys) {
        try (com.sun.jna.Memory m = new com.sun.jna.Memory(Math.max(k.length, 1))) {
          m.write(0, k, 0, k.length);
          assertEquals(0, BloomNative.bloom_add(h, com.sun.jna.Memory.nativeValue(m), k.length));
        }
      }
      return f.serialize();
    }
  }

  private static long handleOf(BloomFilter f) {
    try {
      java.lang.reflect.Field hf = BloomFilter.class.getDeclaredField("handle");
      hf.setAccessible(true);
      Object h = hf.get(f);
      java.lang.reflect.Field pf = h.getClass().getDeclaredField("ptr");
      pf.setAccessible(true);
      return (long) pf.get(h);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> keys() {
    List<String> keys = new ArrayList<>(Arrays.asList(AWKWARD));
    for (int i = 0; i < 1500; i++) keys.add("key-" + i); // past the JNI side's 512 stack slots
    keys.add("L".repeat(300)); // past its 256-byte copy: the critical-section path
    keys.add("\u00e9".repeat(70_000)); // 140 KB: the batch array grows
    return keys;
  }

  private static List<byte[]> utf8(List<String> keys) {
    List<byte[]> out = new ArrayList<>();
    for (String k : keys) out.add(k.getBytes(StandardCharsets.UTF_8));
    return out;
  }

  private static FilterOptions options() {
    return new FilterOptions().capacity(5000).fpRate(0.01).seed(3);
  }

  @Test
  public void everyKeyPathBuildsTheReferenceFilter() {
    List<String> keys = keys();
    List<byte[]> bytes = utf8(keys);
    byte[] want = referenceImage(bytes);
    try (BloomFilter a = new BloomFilter(options());
        BloomFilter b = new BloomFilter(options());
        BloomFilter c = new BloomFilter(options());
        BloomFilter d = new BloomFilter(options());
        BloomFilter e = new BloomFilter(options());
        BloomFilter g = new BloomFilter(options())) {
      for (String k : keys) a.add(k);
      for (byte[] k : bytes) b.add(k);
      c.addAll(keys);
      d.addAll(bytes.toArray(new byte[0][]));
      e.addAll(keys.toArray(new String[0]));
      g.addAll(new java.util.LinkedList<Object>(keys)); // not RandomAccess: the iterator path
      for (BloomFilter f : new BloomFilter[] {a, b, c, d, e, g}) assertArrayEquals(want, f.serialize());
    }
  }

  @Test
  public void queriesAgreeWithSingleCalls() {
    List<String> keys = keys();
    try (BloomFilter f = new BloomFilter(options())) {
      f.addAll(keys.subList(0, keys.size() / 2));
      List<Object> probe = new ArrayList<>(keys);
      for (int i = 0; i < 3000; i++) probe.add(("absent-" + i).getBytes(StandardCharsets.UTF_8));
      boolean[] batch = f.containsAll(probe);
      assertEquals(probe.size(), batch.length);
      int yes = 0;
      for (int i = 0; i < probe.size(); i++) {
        Object k = probe.get(i);
        boolean single = k instanceof String s ? f.contains(s) : f.contains((byte[]) k);
        assertEquals("key " + i, single, batch[i]);
        if (i < keys.size() / 2) assertTrue(batch[i]);
        if (batch[i]) yes++;
      }
      assertTrue("some absent keys answer false", yes < probe.size());
      assertFalse(f.contains("absent-0-and-more"));
    }
  }

  @Test
  public void testAndAddAndRemoveOnLongAndEmptyKeys() {
    try (BloomFilter f = new BloomFilter(new FilterOptions().kind(Kind.COUNTING).capacity(100).fpRate(0.01))) {
      String big = "R".repeat(4000);
      assertFalse(f.testAndAdd(big));
      assertTrue(f.testAndAdd(big));
      assertFalse(f.testAndAdd(new byte[0]));
      assertTrue(f.contains(""));
      f.remove(big);
      f.remove(big);
      assertFalse(f.contains(big));
      BloomException e = assertThrows(BloomException.class, () -> f.remove(big));
      assertEquals(BloomStatus.NOT_PRESENT, e.status());
    }
  }

  @Test
  public void theJniSideRefusesOffsetsOutsideTheBytes() {
    try (BloomFilter f = new BloomFilter(options())) {
      long h = handleOf(f);
      byte[] bytes = new byte[8];
      assertThrows(IllegalArgumentException.class, () -> FastNative.check(FastNative.addBatch(h, bytes, new int[] {4, 9}, 2)));
      assertThrows(IllegalArgumentException.class, () -> FastNative.check(FastNative.addBatch(h, bytes, new int[] {4, 2}, 2)));
      assertThrows(IllegalArgumentException.class, () -> FastNative.check(FastNative.addBatch(h, bytes, new int[] {4}, 2)));
      assertThrows(IllegalArgumentException.class,
          () -> FastNative.check(FastNative.queryBatch(h, bytes, new int[] {4, 8}, 2, new boolean[1])));
      assertThrows(ArrayIndexOutOfBoundsException.class, () -> FastNative.add(h, bytes, 9));
      assertThrows(IllegalArgumentException.class, () -> FastNative.check(FastNative.add(h, new byte[300], 301)));
      assertEquals(0, f.info().keysAdded());
    }
  }
}
