// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.Test;

/**
 * The kinds the library lists ({@code bloom_kind_count/at}): each one this
 * binding has a constant for, whose capabilities it knows, and that behaves
 * as they say. A kind or capability added to the library without this
 * binding learning it fails here.
 */
public class KindsTest {
  private static BloomFilter filled(Kind kind, FilterOptions options) {
    BloomFilter f = new BloomFilter(options.kind(kind).capacity(200).fpRate(0.01));
    for (int i = 0; i < 50; i++) f.add("k" + i);
    return f;
  }

  private static BloomFilter filled(Kind kind) {
    return filled(kind, new FilterOptions());
  }

  /** Whether the call runs without a BloomException. */
  private static boolean works(Runnable call) {
    try {
      call.run();
      return true;
    } catch (BloomException e) {
      return false;
    }
  }

  @Test
  public void theLibraryListsItsKindsInOrder() {
    List<Bloom.KindInfo> kinds = Bloom.kinds();
    assertTrue(kinds.size() > 0);
    for (int i = 1; i < kinds.size(); i++) assertTrue(kinds.get(i - 1).code() < kinds.get(i).code());
    assertEquals(0, BloomNative.bloom_kind_at(kinds.size()));
  }

  @Test
  public void everyListedKindIsKnownToThisBinding() {
    for (Bloom.KindInfo k : Bloom.kinds()) {
      assertNotNull("kind " + k.code() + " (" + k.name() + ") has no Kind constant", k.kind());
      assertEquals(k.name(), k.kind().label());
      assertEquals(k.kind(), Kind.fromLabel(k.name()));
      assertEquals(k.caps(), k.kind().caps());
      assertEquals(k.name() + ": capability bits this binding does not name", 0, k.unknownCaps());
    }
    assertTrue(Capability.of(0).isEmpty());
    assertEquals(0x100, Capability.unknown(0x101));
  }

  @Test
  public void eachKindBehavesAsItsCapabilitiesSay() {
    for (Bloom.KindInfo k : Bloom.kinds()) {
      Kind kind = k.kind();
      Set<Capability> caps = k.caps();
      try (BloomFilter f = filled(kind); BloomFilter other = filled(kind); BloomFilter g = filled(kind)) {
        assertTrue(f.contains("k1"));
        assertEquals(kind + ": remove", caps.contains(Capability.REMOVE), works(() -> f.remove("k1")));
        assertEquals(kind + ": merge", caps.contains(Capability.MERGE), works(() -> f.merge(other)));
        assertEquals(kind + ": intersect", caps.contains(Capability.INTERSECT), works(() -> g.intersect(other)));
      }
      assertEquals(kind + ": concurrent", caps.contains(Capability.CONCURRENT),
          works(() -> filled(kind, new FilterOptions().concurrent(true)).close()));
      assertEquals(kind + ": split block", caps.contains(Capability.SPLIT_BLOCK),
          works(() -> filled(kind, new FilterOptions().splitBlock(true)).close()));
      assertEquals(kind + ": redisbloom hash", caps.contains(Capability.REDISBLOOM_HASH),
          works(() -> filled(kind, new FilterOptions().hash(HashFunction.REDISBLOOM)).close()));
    }
  }
}
