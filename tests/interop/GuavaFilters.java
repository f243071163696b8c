// SPDX-License-Identifier: Apache-2.0
// Writes Guava BloomFilters (Guava's own code, from Debian's libguava-java)
// and what they answer, for tests/interop/run_interop.sh to compare with the
// library's import and export: for each funnel (UTF-8 strings, longs) and
// rate (1e-2, 1e-4), OUT/guava_<funnel>_<p>.bin (BloomFilter.writeTo) and
// OUT/guava_<funnel>_<p>.keys, one line per probed key: the key's bytes as
// the funnel feeds them (hex), a space, and mightContain's answer (0/1).
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.io.FileOutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

public class GuavaFilters {
  static final int ADDED = 2000;
  static final int PROBED = 20000;

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) s.append(String.format("%02x", x & 0xff));
    return s.toString();
  }

  // Keys that exercise the funnel: ASCII, multi-byte UTF-8, and lengths
  // around MurmurHash3's 16-byte block.
  static String stringKey(int i) {
    switch (i % 4) {
      case 0: return "key-" + i;
      case 1: return "ключ-" + i + "-日本";
      case 2: return "a-longer-key-crossing-blocks-" + i;
      default: return Integer.toString(i);
    }
  }

  static long longKey(int i) { return (long) i * 0x9E3779B97F4A7C15L; }

  public static void main(String[] args) throws Exception {
    String out = args[0];
    double[] rates = {1e-2, 1e-4};
    for (double p : rates) {
      String tag = p == 1e-2 ? "0.01" : "0.0001";
      BloomFilter<CharSequence> s = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), ADDED, p);
      for (int i = 0; i < ADDED; i++) s.put(stringKey(i));
      try (FileOutputStream f = new FileOutputStream(out + "/guava_string_" + tag + ".bin")) { s.writeTo(f); }
      try (PrintWriter w = new PrintWriter(out + "/guava_string_" + tag + ".keys", "UTF-8")) {
        for (int i = 0; i < PROBED; i++) {
          String k = stringKey(i);
          w.println(hex(k.getBytes(StandardCharsets.UTF_8)) + " " + (s.mightContain(k) ? 1 : 0));
        }
      }
      BloomFilter<Long> l = BloomFilter.create(Funnels.longFunnel(), ADDED, p);
      for (int i = 0; i < ADDED; i++) l.put(longKey(i));
      try (FileOutputStream f = new FileOutputStream(out + "/guava_long_" + tag + ".bin")) { l.writeTo(f); }
      try (PrintWriter w = new PrintWriter(out + "/guava_long_" + tag + ".keys", "UTF-8")) {
        for (int i = 0; i < PROBED; i++) {
          long k = longKey(i);
          byte[] b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(k).array();
          w.println(hex(b) + " " + (l.mightContain(k) ? 1 : 0));
        }
      }
    }
  }
}
