// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.sun.jna.Memory;
import org.junit.Test;

/** Layout's offsets agree with the loaded library's struct and defaults. */
public class LayoutTest {
  @Test
  public void structSizesFitTheDeclaredLayout() {
    long options = BloomNative.bloom_options_size();
    assertTrue("bloom_options_size " + options, options == Layout.OPTIONS_SIZE_V0 || options == Layout.OPTIONS_SIZE);
    // 0.3.0's bloom_info has ten window members more; the binding passes its
    // own struct_size, and the library writes only that much.
    assertTrue("bloom_info_size " + BloomNative.bloom_info_size(),
        BloomNative.bloom_info_size() >= Layout.INFO_SIZE);
  }

  @Test
  public void optionsInitWritesTheDefaultsWhereLayoutSaysTheyAre() {
    try (Memory m = new Memory(Layout.OPTIONS_SIZE)) {
      m.clear();
      BloomNative.bloom_options_init(Memory.nativeValue(m));
      // The bloom_options_init symbol keeps its 0.2.0 promise to old callers:
      // it writes the 96-byte layout and says so (the binding then sets its
      // own struct_size, FilterOptions.toNative).
      assertEquals(Layout.OPTIONS_SIZE_V0, m.getLong(Layout.O_STRUCT_SIZE));
      assertEquals(1, m.getInt(Layout.O_KIND));
      assertEquals(1_000_000L, m.getLong(Layout.O_CAPACITY));
      assertEquals(0.01, m.getDouble(Layout.O_FP_RATE), 0);
      assertEquals(1, m.getInt(Layout.O_HASH));
      assertEquals(0L, m.getLong(Layout.O_SEED));
      assertEquals(0, m.getInt(Layout.O_FLAGS));
      assertEquals(0L, m.getLong(Layout.O_BITS));
      assertEquals(0, m.getInt(Layout.O_HASHES));
      assertEquals(2.0, m.getDouble(Layout.O_GROWTH), 0);
      assertEquals(0.85, m.getDouble(Layout.O_TIGHTENING), 0);
      assertEquals(4, m.getInt(Layout.O_COUNTER_BITS));
    }
  }

  @Test
  public void infoMembersLandWhereLayoutSaysTheyAre() {
    try (BloomFilter f = new BloomFilter(new FilterOptions().kind(Kind.SCALABLE).capacity(100).fpRate(0.01)
        .seed(0x0123456789abcdefL).hash(HashFunction.MURMUR3).growth(3).tightening(0.5))) {
      for (int i = 0; i < 250; i++) f.add("k" + i);
      FilterInfo info = f.info();
      assertEquals(Kind.SCALABLE, info.kind());
      assertEquals(HashFunction.MURMUR3, info.hash());
      assertEquals(0x0123456789abcdefL, info.seed());
      assertEquals(250, info.keysAdded());
      assertEquals(3.0, info.growth(), 0);
      assertEquals(0.5, info.tightening(), 0);
      assertTrue(info.stages() >= 2);
      assertEquals(1, info.counterBits());
      assertEquals(1, info.formatMajor());
      assertTrue(info.fillRatio() > 0 && info.fillRatio() < 1);
      assertTrue(info.bytes() * 8 >= info.bits());
    }
  }
}
