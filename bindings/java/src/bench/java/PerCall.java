// SPDX-License-Identifier: Apache-2.0
import bloomkit.BloomFilter;
import bloomkit.FilterOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Per-call cost of the Java binding: the work of bindings/bench/c_per_call.c
 * (1,000,000 keys "key-i" into a classic filter of that capacity at 1%;
 * single add and contains, then batches of 1000), ns per key, the median of
 * 5 rounds after 2 warm-up rounds (JIT); String keys (UTF-8 encoded per call)
 * and byte[] keys; process CPU time. Output: "op_keytype ns" lines.
 */
public final class PerCall {
  private PerCall() {}

  static final int KEYS = 1_000_000;
  static final int BATCH = 1000;
  static final int ROUNDS = 5;
  static final int WARMUP = 2;
  static long hits;

  interface Work {
    void run(BloomFilter f);
  }

  /**
   * Process CPU time in ns (GC and JIT threads included), as the C baseline
   * measures: the sum of every thread's run time in /proc/self/task/{@literal *}/schedstat.
   * (OperatingSystemMXBean.getProcessCpuTime ticks in 10 ms here: 10 ns a key.)
   */
  static long cpuNs() {
    long sum = 0;
    try (java.nio.file.DirectoryStream<java.nio.file.Path> tasks =
        java.nio.file.Files.newDirectoryStream(java.nio.file.Paths.get("/proc/self/task"))) {
      for (java.nio.file.Path t : tasks) {
        try {
          String line = java.nio.file.Files.readString(t.resolve("schedstat"));
          sum += Long.parseLong(line.substring(0, line.indexOf(' ')));
        } catch (java.io.IOException e) {
          // a thread that ended between the listing and the read
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return sum;
  }

  static double perKey(BloomFilter f, Work w) {
    long t0 = cpuNs();
    w.run(f);
    return (cpuNs() - t0) / (double) KEYS;
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  public static void main(String[] args) {
    String[] strings = new String[KEYS];
    byte[][] bytes = new byte[KEYS][];
    for (int i = 0; i < KEYS; i++) {
      strings[i] = "key-" + i;
      bytes[i] = strings[i].getBytes(StandardCharsets.UTF_8);
    }
    List<List<String>> stringBatches = new ArrayList<>();
    List<byte[][]> byteBatches = new ArrayList<>();
    for (int i = 0; i < KEYS; i += BATCH) {
      stringBatches.add(Arrays.asList(strings).subList(i, i + BATCH));
      byteBatches.add(Arrays.copyOfRange(bytes, i, i + BATCH));
    }
    FilterOptions options = new FilterOptions().capacity(KEYS).fpRate(0.01);
    String[] ops = {"add", "query", "add_batch", "query_batch"};
    for (String type : new String[] {"string", "bytes"}) {
      boolean str = type.equals("string");
      double[][] samples = new double[4][ROUNDS];
      for (int r = -WARMUP; r < ROUNDS; r++) {
        double[] t = new double[4];
        try (BloomFilter f = new BloomFilter(options)) {
          t[0] = perKey(f, g -> {
            if (str) for (String k : strings) g.add(k);
            else for (byte[] k : bytes) g.add(k);
          });
          t[1] = perKey(f, g -> {
            if (str) for (String k : strings) hits += g.contains(k) ? 1 : 0;
            else for (byte[] k : bytes) hits += g.contains(k) ? 1 : 0;
          });
        }
        try (BloomFilter f = new BloomFilter(options)) {
          t[2] = perKey(f, g -> {
            if (str) for (List<String> b : stringBatches) g.addAll(b);
            else for (byte[][] b : byteBatches) g.addAll(b);
          });
          t[3] = perKey(f, g -> {
            if (str) for (List<String> b : stringBatches) hits += g.containsAll(b)[0] ? 1 : 0;
            else for (byte[][] b : byteBatches) hits += g.containsAll(b)[0] ? 1 : 0;
          });
        }
        if (r >= 0) for (int m = 0; m < 4; m++) samples[m][r] = t[m];
      }
      for (int m = 0; m < 4; m++) System.out.printf("%s_%s %.1f%n", ops[m], type, median(samples[m]));
    }
    System.err.println("(" + hits + " hits; java " + System.getProperty("java.version") + ")");
  }
}
