// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.sun.jna.Memory;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import org.junit.Test;

/**
 * Layout's offsets agree with the loaded library's struct and defaults, and
 * the enums of C values with bloom.h's (Layout is generated from it).
 */
public class LayoutTest {
  /** The header's values of one group (Layout's PREFIX_NAME constants) by NAME. */
  private static Map<String, Integer> header(String prefix) throws IllegalAccessException {
    Map<String, Integer> out = new TreeMap<>();
    for (Field f : Layout.class.getDeclaredFields()) {
      if (f.getName().startsWith(prefix)) out.put(f.getName().substring(prefix.length()), f.getInt(null));
    }
    return out;
  }

  private static <E extends Enum<E>> Map<String, Integer> java(E[] values, ToIntFunction<E> code) {
    Map<String, Integer> out = new TreeMap<>();
    for (E e : values) out.put(e.name(), code.applyAsInt(e));
    return out;
  }

  @Test
  public void everyEnumHasTheHeadersValuesNoMoreNoFewer() throws IllegalAccessException {
    assertEquals(header("KIND_"), java(Kind.values(), Kind::code));
    assertEquals(header("HASH_"), java(HashFunction.values(), HashFunction::code));
    assertEquals(header("CAP_"), java(Capability.values(), Capability::bit));
    Map<String, Integer> statuses = java(BloomStatus.values(), BloomStatus::code);
    statuses.remove(BloomStatus.UNKNOWN.name());
    assertEquals(header("STATUS_"), statuses);
  }

  @Test
  public void structSizesFitTheDeclaredLayout() {
    long options = BloomNative.bloom_options_size();
    assertEquals(Layout.OPTIONS_SIZE, options);
    assertEquals(Layout.INFO_SIZE, BloomNative.bloom_info_size());
  }

  @Test
  public void optionsInitWritesTheDefaultsWhereLayoutSaysTheyAre() {
    try (Memory m = new Memory(Layout.OPTIONS_SIZE)) {
      m.clear();
      BloomNative.bloom_options_init(Memory.nativeValue(m));
      // The bloom_options_init symbol keeps its 0.2.0 promise to old callers:
      // it writes the layout up to window_ms and says so (the binding then
      // sets its own struct_size, FilterOptions.toNative).
      assertEquals(Layout.O_WINDOW_MS, m.getLong(Layout.O_STRUCT_SIZE));
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
