// SPDX-License-Identifier: Apache-2.0
import bloomkit.BloomFilter;
import bloomkit.FilterInfo;
import bloomkit.FilterOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Stream de-duplication (the seeds' use case): print each line of standard
 * input the first time it is seen, then save the filter, which a C program,
 * the CLI ({@code bloom query seen.bloom KEY}), Python or Node can read.
 * Run: {@code ./build.sh example < lines.txt}
 */
public final class Dedup {
  private Dedup() {}

  public static void main(String[] args) throws Exception {
    String out = args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir") + "/seen.bloom";
    long total = 0;
    long unique = 0;
    try (BloomFilter seen = new BloomFilter(new FilterOptions().capacity(1_000_000).fpRate(0.001));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        total++;
        if (!seen.testAndAdd(line)) {
          unique++;
          System.out.println(line);
        }
      }
      seen.save(out);
      FilterInfo info = seen.info();
      System.err.printf("%d of %d lines were new; saved %s (%d bytes, estimated %.0f keys)%n",
          unique, total, out, info.bytes(), info.estimatedKeys());
    }
  }
}
