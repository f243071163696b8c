// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeFalse;
import static org.junit.Assume.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The Java binding's own behaviour: kinds, keys, batches, errors, persistence, ownership. */
public class BloomFilterTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static List<String> keys(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add("key-" + i);
    return out;
  }

  @Test
  public void everyKindAndHashHasNoFalseNegatives() {
    List<String> keys = keys(2000);
    for (Kind kind : new Kind[] {Kind.CLASSIC, Kind.PARTITIONED, Kind.BLOCKED, Kind.COUNTING, Kind.SCALABLE}) {
      for (HashFunction hash : HashFunction.values()) {
        // RedisBloom's hashing is defined for classic and scalable only.
        if (hash == HashFunction.REDISBLOOM && kind != Kind.CLASSIC && kind != Kind.SCALABLE) continue;
        // Other systems' hashings take no seed and one kind each (docs/interop.md);
        // the interop tests check them against their writers.
        if (hash == HashFunction.GUAVA || hash == HashFunction.BITS_AND_BLOOMS || hash == HashFunction.PARQUET) continue;
        try (BloomFilter f = new BloomFilter(new FilterOptions().kind(kind).hash(hash).capacity(1000).fpRate(0.01).seed(7))) {
          f.addAll(keys);
          for (String k : keys) assertTrue(kind + "/" + hash + " " + k, f.contains(k));
          FilterInfo info = f.info();
          assertEquals(kind, info.kind());
          assertEquals(hash, info.hash());
          assertEquals(7, info.seed());
          int fp = 0;
          for (int i = 0; i < 1000; i++) fp += f.contains("absent-" + i) ? 1 : 0;
          assertTrue(kind + "/" + hash + ": " + fp + " of 1000 absent keys answered maybe", fp < 500);
        }
      }
    }
  }

  @Test
  public void stringsHashAsUtf8AndBatchesEqualSingles() {
    String[] text = {"", "ascii", "h\u00e9llo", "\uD83C\uDF0D", "x".repeat(100_000)};
    byte[][] raw = {new byte[0], {0, (byte) 0xff, 16, 0}, {(byte) 0x80}};
    try (BloomFilter a = new BloomFilter(new FilterOptions().capacity(1000));
        BloomFilter b = new BloomFilter(new FilterOptions().capacity(1000))) {
      a.addAll(text);
      a.addAll(raw);
      for (String s : text) b.add(s);
      for (byte[] r : raw) b.add(r);
      assertArrayEquals(a.serialize(), b.serialize());
      for (String s : text) assertTrue(a.contains(s.getBytes(StandardCharsets.UTF_8)));
      boolean[] all = a.containsAll(Arrays.asList(text[2], raw[1], "not-there-at-all"));
      assertTrue(all[0] && all[1]);
      assertEquals(a.contains("not-there-at-all"), all[2]);
      assertEquals(0, a.containsAll(new ArrayList<>()).length);
      a.addAll(new String[0]);
    }
  }

  @Test
  public void badArgumentsAreJavaExceptionsNotCrashes() {
    try (BloomFilter f = new BloomFilter(new FilterOptions().capacity(10))) {
      assertThrows(NullPointerException.class, () -> f.add((String) null));
      assertThrows(NullPointerException.class, () -> f.addAll(Arrays.asList("a", null)));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.addAll(List.of("a", 42)));
      assertTrue(e.getMessage(), e.getMessage().contains("keys[1]"));
      assertThrows(IllegalArgumentException.class, () -> f.save("a\0b"));
      assertThrows(IllegalArgumentException.class, () -> f.stageInfo(-1));
    }
    assertThrows(IllegalArgumentException.class, () -> Kind.fromLabel("bogus"));
  }

  private static void assertStatus(BloomStatus want, org.junit.function.ThrowingRunnable r) {
    BloomException e = assertThrows(BloomException.class, r);
    assertEquals(e.getMessage(), want, e.status());
    assertEquals(want.code(), e.code());
    assertFalse(e.getMessage().isEmpty());
  }

  @Test
  public void cStatusesArriveAsBloomException() throws Exception {
    assertStatus(BloomStatus.INVALID_ARG, () -> new BloomFilter(new FilterOptions().fpRate(1.5)));
    assertStatus(BloomStatus.INVALID_ARG, () -> new BloomFilter(new FilterOptions().capacity(0)));
    assertStatus(BloomStatus.INVALID_ARG, () -> new BloomFilter(new FilterOptions().counterBits(5).kind(Kind.COUNTING)));
    assertStatus(BloomStatus.UNSUPPORTED, () -> new BloomFilter(new FilterOptions().kind(Kind.SCALABLE).concurrent(true)));
    assertStatus(BloomStatus.INVALID_ARG, () -> new BloomFilter(new FilterOptions().kind(Kind.BLOCKED).plainDoubleHashing(true)));
    assertStatus(BloomStatus.OVERFLOW, () -> new BloomFilter(new FilterOptions().bits(1L << 41)));
    assertStatus(BloomStatus.IO, () -> BloomFilter.load(new File(tmp.getRoot(), "missing.bloom").getPath()));
    assertStatus(BloomStatus.FORMAT, () -> BloomFilter.deserialize("not a filter at all, clearly".getBytes(StandardCharsets.UTF_8)));
    try (BloomFilter c = new BloomFilter(new FilterOptions().kind(Kind.COUNTING).capacity(100));
        BloomFilter plain = new BloomFilter(new FilterOptions().capacity(100))) {
      assertStatus(BloomStatus.NOT_PRESENT, () -> c.remove("never"));
      assertStatus(BloomStatus.UNSUPPORTED, () -> plain.remove("a"));
      plain.add("a");
      byte[] image = plain.serialize();
      image[image.length - 1] ^= (byte) 0xff;
      assertStatus(BloomStatus.CHECKSUM, () -> BloomFilter.deserialize(image));
    }
  }

  @Test
  public void testAndAddRemoveClearCopy() {
    try (BloomFilter f = new BloomFilter(new FilterOptions().kind(Kind.COUNTING).capacity(100).counterBits(8))) {
      assertFalse(f.testAndAdd("a"));
      assertTrue(f.testAndAdd("a"));
      f.remove("a");
      assertTrue(f.contains("a"));
      f.remove("a");
      assertFalse(f.contains("a"));
      f.add("b");
      try (BloomFilter copy = f.copy()) {
        f.clear();
        assertFalse(f.contains("b"));
        assertTrue(copy.contains("b"));
        assertEquals(8, copy.info().counterBits());
      }
    }
  }

  @Test
  public void mergeIntersectAndIncompatible() {
    try (BloomFilter a = new BloomFilter(new FilterOptions().capacity(1000));
        BloomFilter b = new BloomFilter(new FilterOptions().capacity(1000));
        BloomFilter other = new BloomFilter(new FilterOptions().capacity(1000).seed(1))) {
      a.addAll("only-a", "both");
      b.addAll("only-b", "both");
      try (BloomFilter u = a.copy()) {
        u.merge(b);
        assertTrue(u.contains("only-a") && u.contains("only-b") && u.contains("both"));
      }
      a.intersect(b);
      assertTrue(a.contains("both"));
      BloomException e = assertThrows(BloomException.class, () -> a.merge(other));
      assertEquals(BloomStatus.INCOMPATIBLE, e.status());
      assertTrue(e.getMessage(), e.getMessage().contains("seed"));
    }
  }

  @Test
  public void saveLoadMapSerializeRoundTripTheSameBytes() throws Exception {
    List<String> keys = keys(2000);
    File file = new File(tmp.getRoot(), "f.bloom");
    try (BloomFilter f = new BloomFilter(new FilterOptions().kind(Kind.BLOCKED).capacity(10_000).fpRate(0.001))) {
      f.addAll(keys);
      f.save(file.getPath());
      byte[] image = f.serialize();
      assertEquals(image.length, f.serializedSize());
      assertArrayEquals(Files.readAllBytes(file.toPath()), image);
      try (BloomFilter loaded = BloomFilter.load(file.getPath());
          BloomFilter mapped = BloomFilter.map(file.getPath());
          BloomFilter fromBytes = BloomFilter.deserialize(image)) {
        for (BloomFilter g : new BloomFilter[] {loaded, mapped, fromBytes}) {
          boolean[] all = g.containsAll(keys);
          for (boolean x : all) assertTrue(x);
          assertArrayEquals(image, g.serialize());
        }
        assertTrue(mapped.info().readOnly());
        assertStatus(BloomStatus.UNSUPPORTED, () -> mapped.add("x"));
      }
    }
  }

  @Test
  public void scalableStageInfo() {
    try (BloomFilter f = new BloomFilter(new FilterOptions().kind(Kind.SCALABLE).capacity(100).tightening(0.5))) {
      f.addAll(keys(2000));
      FilterInfo info = f.info();
      assertTrue(info.stages() > 1);
      long bits = 0;
      for (int i = 0; i < info.stages(); i++) bits += f.stageInfo(i).bits();
      assertEquals(info.bits(), bits);
      assertEquals(100, f.stageInfo(0).capacity());
      assertStatus(BloomStatus.INVALID_ARG, () -> f.stageInfo(info.stages()));
    }
  }

  @Test
  public void flagsExplicitSizesAndUnsignedSeeds() {
    try (BloomFilter f = new BloomFilter(new FilterOptions().bits(4096).hashes(3).seed(0xfeedfacecafebeefL)
        .concurrent(true).plainDoubleHashing(true))) {
      FilterInfo info = f.info();
      assertEquals(4096, info.bits());
      assertEquals(3, info.hashes());
      assertEquals("18369614221190020847", Long.toUnsignedString(info.seed()));
      assertTrue(info.concurrent() && info.plainDoubleHashing());
    }
  }

  @Test
  public void concurrentAddsFromManyThreadsLoseNothing() throws Exception {
    try (BloomFilter f = new BloomFilter(new FilterOptions().capacity(100_000).concurrent(true))) {
      Thread[] threads = new Thread[4];
      AtomicInteger failures = new AtomicInteger();
      for (int t = 0; t < threads.length; t++) {
        final int id = t;
        threads[t] = new Thread(() -> {
          List<String> mine = new ArrayList<>();
          for (int i = 0; i < 5000; i++) mine.add("t" + id + "-" + i);
          for (int i = 0; i < 5000; i += 500) f.addAll(mine.subList(i, i + 500));
          for (boolean x : f.containsAll(mine)) if (!x) failures.incrementAndGet();
        });
        threads[t].start();
      }
      for (Thread t : threads) t.join();
      assertEquals(0, failures.get());
      assertEquals(20_000, f.info().keysAdded());
    }
  }

  @Test
  public void mathAndVersion() {
    assertEquals(new Bloom.Params(19_170_117L, 13), Bloom.optimalParams(1_000_000, 0.0001));
    assertEquals(0.01, Bloom.expectedFpRate(1000, 9586, 7), 0.001);
    assertTrue(Double.isNaN(Bloom.expectedFpRate(1000, 0, 7)));
    assertStatus(BloomStatus.INVALID_ARG, () -> Bloom.optimalParams(0, 0.01));
    assertTrue(Bloom.version().matches("\\d+\\.\\d+\\.\\d+"));
    assertTrue(Bloom.versionNumber() >= 200);
    assertEquals("checksum mismatch", Bloom.describe(-5).toLowerCase().contains("checksum") ? "checksum mismatch" : Bloom.describe(-5));
  }

  @Test
  public void closeIsIdempotentAndClosedFiltersRefuseCalls() {
    BloomFilter f = new BloomFilter(new FilterOptions().capacity(10));
    f.close();
    f.close();
    assertTrue(f.isClosed());
    assertThrows(IllegalStateException.class, () -> f.add("a"));
    try (BloomFilter g = new BloomFilter(new FilterOptions().capacity(10))) {
      assertThrows(IllegalStateException.class, () -> g.merge(f));
    }
  }

  @Test
  public void unclosedFiltersAreFreedByTheCleaner() throws Exception {
    long before = BloomFilter.OPEN.get();
    for (int i = 0; i < 500; i++) new BloomFilter(new FilterOptions().capacity(10_000)).add("x");
    assertEquals(before + 500, BloomFilter.OPEN.get());
    // Wait for the collector (not a timing assertion: 20 s is the give-up point).
    for (int i = 0; i < 200 && BloomFilter.OPEN.get() > before; i++) {
      System.gc();
      Thread.sleep(100);
    }
    assertEquals(before, BloomFilter.OPEN.get());
  }

  @Test
  public void windowKind() {
    assumeTrue("this libbloomfilter has no window kind (bloom_advance absent or bloom_options_size() < 104)",
        Bloom.hasWindowKind());
    try (BloomFilter f = new BloomFilter(new FilterOptions().kind(Kind.WINDOW).capacity(1000).windowMs(1000))) {
      f.advance(0);
      f.add("old");
      assertTrue(f.contains("old"));
      f.advance(10_000);
      f.add("new");
      assertTrue(f.contains("new"));
      assertEquals(Kind.WINDOW, f.info().kind());
    }
  }

  @Test
  public void withoutTheWindowKindTheLibraryRefusesIt() {
    assumeFalse("the library has the window kind", Bloom.hasWindowKind());
    assertStatus(BloomStatus.INVALID_ARG, () -> new BloomFilter(new FilterOptions().kind(Kind.WINDOW).capacity(100)));
    try (BloomFilter f = new BloomFilter(new FilterOptions().capacity(10))) {
      if (!WindowNative.AVAILABLE) assertThrows(UnsupportedOperationException.class, () -> f.advance(1));
    }
  }

  @Test
  public void splitBlockIsABlockedOption() {
    FilterOptions o = new FilterOptions().kind(Kind.BLOCKED).splitBlock(true).capacity(2000).fpRate(0.001);
    try (BloomFilter f = new BloomFilter(o)) {
      List<String> keys = keys(2000);
      f.addAll(keys);
      for (String k : keys) assertTrue(k, f.contains(k));
      assertTrue(f.info().splitBlock());
      assertEquals(8, f.info().hashes());
    }
    assertStatus(BloomStatus.INVALID_ARG, () -> new BloomFilter(o.kind(Kind.CLASSIC)));
  }
}
