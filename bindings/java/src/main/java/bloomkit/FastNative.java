// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The key-taking C calls by JNI (src/main/c/bloomkit_jni.c): keys are taken
 * from Java arrays, a batch is one byte[] of packed keys and an int[] of end
 * offsets. JNA's direct mapping copied each key into native memory first,
 * which cost about twice this path's time per key (README, "Per-call
 * cost", has the numbers).
 *
 * <p>The library is {@code $bloomkit.jni} (a system property: a path), else
 * the copy build.sh puts in the jar, written to a temporary file, loaded
 * and deleted. It is linked to libbloomfilter.so.1, which {@link BloomNative}
 * has loaded first, so both use the one C library.
 */
final class FastNative {
  private FastNative() {}

  /** Returned by the JNI side for a null array or lengths that do not fit the bytes (never a C status). */
  static final int BAD_ARGS = Integer.MIN_VALUE;
  /** Returned by the JNI side when it could not reach an array or allocate. */
  static final int NO_MEMORY = Integer.MIN_VALUE + 1;

  static final String RESOURCE =
      "/bloomkit/native/" + System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).replace(' ', '_') + "-"
          + System.getProperty("os.arch") + "/libbloomkit_jni.so";

  static {
    Object loaded = BloomNative.LIBRARY; // libbloomfilter first: the JNI library's DT_NEEDED finds it loaded
    if (loaded == null) throw new IllegalStateException("bloomkit: libbloomfilter not loaded");
    String path = System.getProperty("bloomkit.jni");
    if (path != null && !path.isEmpty()) {
      System.load(path);
    } else {
      loadFromJar();
    }
  }

  private static void loadFromJar() {
    try (InputStream in = FastNative.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new UnsatisfiedLinkError("bloomkit: the jar has no " + RESOURCE
            + " (build.sh builds it for the platform it runs on); or pass -Dbloomkit.jni=/path/libbloomkit_jni.so");
      }
      Path tmp = Files.createTempFile("bloomkit_jni", ".so");
      try {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        System.load(tmp.toAbsolutePath().toString());
      } finally {
        Files.deleteIfExists(tmp); // the mapping stays; the name is not needed after dlopen
      }
    } catch (IOException e) {
      throw new UncheckedIOException("bloomkit: cannot write the JNI library to a temporary file", e);
    }
  }

  /** A JNI-side failure as a Java exception; a C status (>= BLOOM_E_* range) is returned as is. */
  static int check(int r) {
    if (r == BAD_ARGS) throw new IllegalArgumentException("bloomkit: key lengths or offsets do not fit the bytes");
    if (r == NO_MEMORY) throw new OutOfMemoryError("bloomkit: JNI could not reach a key array");
    return BloomNative.check(r);
  }

  /** Key = key[0, len); 0 <= len <= key.length (checked: AIOOBE). */
  static native int add(long f, byte[] key, int len);

  static native int query(long f, byte[] key, int len);

  static native int testAndAdd(long f, byte[] key, int len);

  static native int remove(long f, byte[] key, int len);

  /** Keys are bytes[ends[i-1], ends[i]) for i below n (ends[-1] = 0). */
  static native int addBatch(long f, byte[] bytes, int[] ends, int n);

  /** As addBatch; results[i] = the answer for key i. */
  static native int queryBatch(long f, byte[] bytes, int[] ends, int n, boolean[] results);
}
