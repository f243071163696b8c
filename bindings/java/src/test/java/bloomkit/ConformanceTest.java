// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The conformance suite (tests/conformance/cases.json, or
 * $BLOOM_CONFORMANCE_CASES) through the Java binding: each case's answers
 * (single and batch), info, image size and sha256, again after deserialize
 * and after save + load; each golden file's answers. With
 * $BLOOM_CONFORMANCE_OUT set, each case's file is saved there as
 * {@code <case>.bloom} for the cross-language check.
 */
@RunWith(Parameterized.class)
public class ConformanceTest {
  /**
   * The suite's files: $BLOOM_SOURCE_DIR names a bloom checkout (its
   * tests/conformance/cases.json and tests/golden/); without it, the checkout
   * this binding sits in (bindings/java is two levels down).
   * $BLOOM_CONFORMANCE_CASES names another cases file, whose golden files are
   * read from the checkout that holds it.
   */
  static final Path REPO = sourceDir();

  static Path sourceDir() {
    String dir = System.getenv("BLOOM_SOURCE_DIR");
    if (dir != null && !dir.isEmpty()) return Paths.get(dir).toAbsolutePath().normalize();
    String cases = System.getenv("BLOOM_CONFORMANCE_CASES");
    if (cases != null && !cases.isEmpty()) {
      return Paths.get(cases).toAbsolutePath().getParent().resolve("../..").normalize();
    }
    return Paths.get(System.getProperty("user.dir")).resolve("../..").normalize();
  }

  static Path casesPath() {
    String env = System.getenv("BLOOM_CONFORMANCE_CASES");
    return env != null && !env.isEmpty() ? Paths.get(env) : REPO.resolve("tests/conformance/cases.json");
  }

  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() throws IOException {
    List<Object[]> out = new ArrayList<>();
    Path file = casesPath();
    if (!Files.exists(file)) {
      out.add(new Object[] {"missing", null});
      return out;
    }
    JsonObject suite;
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      suite = JsonParser.parseReader(r).getAsJsonObject();
    }
    if (suite.get("format").getAsInt() != 1) throw new IOException(file + ": this runner reads format 1");
    for (JsonElement c : suite.getAsJsonArray("cases")) {
      out.add(new Object[] {"case " + c.getAsJsonObject().get("name").getAsString(), c.getAsJsonObject()});
    }
    for (JsonElement g : suite.getAsJsonArray("golden")) {
      out.add(new Object[] {"golden " + g.getAsJsonObject().get("file").getAsString(), g.getAsJsonObject()});
    }
    return out;
  }

  private final String name;
  private final JsonObject item;

  public ConformanceTest(String name, JsonObject item) {
    this.name = name;
    this.item = item;
  }

  /** "s:text" is UTF-8 text, "x:hex" raw bytes. */
  static byte[] keyBytes(String spec) {
    if (spec.startsWith("s:")) return spec.substring(2).getBytes(StandardCharsets.UTF_8);
    if (spec.startsWith("x:")) return HexFormat.of().parseHex(spec.substring(2));
    throw new IllegalArgumentException("a key must start with s: or x:, got " + spec);
  }

  /** The key as the binding's natural type: a String for s:, a byte[] for x:. */
  static Object keyValue(String spec) {
    return spec.startsWith("s:") ? spec.substring(2) : keyBytes(spec);
  }

  static FilterOptions options(JsonObject o) {
    FilterOptions f = new FilterOptions();
    for (Map.Entry<String, JsonElement> e : o.entrySet()) {
      JsonElement v = e.getValue();
      switch (e.getKey()) {
        case "kind" -> f.kind(Kind.fromLabel(v.getAsString())); // "window" on an old library: create fails loudly
        case "hash" -> f.hash(HashFunction.fromLabel(v.getAsString()));
        case "capacity" -> f.capacity(v.getAsBigInteger().longValue());
        case "fp_rate" -> f.fpRate(v.getAsDouble());
        case "seed" -> f.seed(v.getAsBigInteger().longValue()); // unsigned 64-bit, bit for bit
        case "bits" -> f.bits(v.getAsBigInteger().longValue());
        case "hashes" -> f.hashes(v.getAsInt());
        case "growth" -> f.growth(v.getAsDouble());
        case "tightening" -> f.tightening(v.getAsDouble());
        case "counter_bits" -> f.counterBits(v.getAsInt());
        case "window_ms" -> f.windowMs(v.getAsBigInteger().longValue());
        case "flags" -> {
          for (JsonElement flag : v.getAsJsonArray()) {
            switch (flag.getAsString()) {
              case "concurrent" -> f.concurrent(true);
              case "plain_double_hashing" -> f.plainDoubleHashing(true);
              default -> throw new IllegalArgumentException("unknown flag " + flag);
            }
          }
        }
        default -> throw new IllegalArgumentException("unknown option " + e.getKey());
      }
    }
    return f;
  }

  static void checkAnswers(BloomFilter f, JsonArray queries, String where) {
    List<Object> keys = new ArrayList<>();
    boolean[] want = new boolean[queries.size()];
    for (int i = 0; i < queries.size(); i++) {
      JsonArray q = queries.get(i).getAsJsonArray();
      String spec = q.get(0).getAsString();
      want[i] = q.get(1).getAsBoolean();
      Object key = keyValue(spec);
      keys.add(key);
      boolean got = key instanceof String s ? f.contains(s) : f.contains((byte[]) key);
      assertEquals(where + ": contains(" + spec + ")", want[i], got);
    }
    assertArrayEquals(where + ": containsAll", want, f.containsAll(keys));
  }

  /** The info member of a snake_case name, as the conformance file writes it. */
  static Object infoValue(FilterInfo i, String member) {
    return switch (member) {
      case "kind" -> i.kind() == null ? "unknown kind " + i.kindCode() : i.kind().label();
      case "hash" -> i.hash() == null ? "unknown hash" : i.hash().label();
      case "seed" -> Long.toUnsignedString(i.seed());
      case "flags" -> {
        List<String> f = new ArrayList<>();
        if (i.concurrent()) f.add("concurrent");
        if (i.plainDoubleHashing()) f.add("plain_double_hashing");
        yield f.toString();
      }
      case "hashes" -> Long.toString(i.hashes());
      case "bits" -> Long.toUnsignedString(i.bits());
      case "bytes" -> Long.toUnsignedString(i.bytes());
      case "capacity" -> Long.toUnsignedString(i.capacity());
      case "keys_added" -> Long.toUnsignedString(i.keysAdded());
      case "stages" -> Long.toString(i.stages());
      case "counter_bits" -> Long.toString(i.counterBits());
      case "read_only" -> Boolean.toString(i.readOnly());
      case "format_major" -> Long.toString(i.formatMajor());
      case "format_minor" -> Long.toString(i.formatMinor());
      case "fp_rate" -> Double.toString(i.fpRate());
      case "growth" -> Double.toString(i.growth());
      case "tightening" -> Double.toString(i.tightening());
      case "estimated_keys" -> Double.toString(i.estimatedKeys());
      case "fill_ratio" -> Double.toString(i.fillRatio());
      case "expected_fp_rate" -> Double.toString(i.expectedFpRate());
      default -> throw new AssertionError("info member " + member + " unknown to this runner");
    };
  }

  static String expected(String member, JsonElement v) {
    if (v.isJsonArray()) {
      List<String> out = new ArrayList<>();
      for (JsonElement e : v.getAsJsonArray()) out.add(e.getAsString());
      return out.toString();
    }
    if (v.getAsJsonPrimitive().isBoolean()) return Boolean.toString(v.getAsBoolean());
    if (v.getAsJsonPrimitive().isString()) return v.getAsString();
    return switch (member) {
      case "fp_rate", "growth", "tightening", "estimated_keys", "fill_ratio", "expected_fp_rate" ->
          Double.toString(v.getAsDouble());
      default -> v.getAsBigInteger().toString();
    };
  }

  static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  public void conforms() throws Exception {
    if (item == null) {
      // Never a skip: a suite that cannot be found fails, naming the variable.
      fail("no conformance cases at " + casesPath() + ": set BLOOM_SOURCE_DIR to a bloom checkout");
    }
    if (name.startsWith("golden ")) {
      try (BloomFilter f = BloomFilter.load(REPO.resolve(item.get("file").getAsString()).toString())) {
        checkAnswers(f, item.getAsJsonArray("query"), name);
      }
      return;
    }
    try (BloomFilter f = new BloomFilter(options(item.getAsJsonObject("options")))) {
      List<Object> keys = new ArrayList<>();
      for (JsonElement k : item.getAsJsonArray("add")) keys.add(keyValue(k.getAsString()));
      if (item.get("add_batch").getAsBoolean()) {
        f.addAll(keys);
      } else {
        for (Object k : keys) {
          if (k instanceof String s) f.add(s);
          else f.add((byte[]) k);
        }
      }
      if (item.has("remove")) {
        for (JsonElement k : item.getAsJsonArray("remove")) f.remove(keyBytes(k.getAsString()));
      }
      JsonArray queries = item.getAsJsonArray("query");
      checkAnswers(f, queries, "built");

      FilterInfo info = f.info();
      for (Map.Entry<String, JsonElement> e : item.getAsJsonObject("info").entrySet()) {
        assertEquals("info." + e.getKey(), expected(e.getKey(), e.getValue()), infoValue(info, e.getKey()));
      }

      byte[] image = f.serialize();
      String sha = item.get("image_sha256").getAsString();
      assertEquals("image size", item.get("image_size").getAsLong(), image.length);
      assertEquals("serializedSize", item.get("image_size").getAsLong(), f.serializedSize());
      assertEquals("image sha256", sha, sha256(image));

      try (BloomFilter copy = BloomFilter.deserialize(image)) {
        checkAnswers(copy, queries, "deserialized");
        assertEquals("deserialized image sha256", sha, sha256(copy.serialize()));
      }
      Path saved = tmp.getRoot().toPath().resolve("case.bloom");
      f.save(saved.toString());
      assertEquals("saved file sha256", sha, sha256(Files.readAllBytes(saved)));
      try (BloomFilter loaded = BloomFilter.load(saved.toString())) {
        checkAnswers(loaded, queries, "loaded");
      }
      String out = System.getenv("BLOOM_CONFORMANCE_OUT");
      if (out != null && !out.isEmpty()) {
        Path dir = Paths.get(out);
        assertTrue(out + " is not a directory", Files.isDirectory(dir));
        f.save(dir.resolve(item.get("name").getAsString() + ".bloom").toString());
      }
      assertNotNull(info);
    }
  }
}
