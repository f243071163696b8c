// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;

/**
 * The C API by JNA direct mapping (static natives bound once: an order of
 * magnitude cheaper per call than JNA interface mapping). Pointers are passed as
 * {@code long} (a pointer and a 64-bit integer travel alike on the LP64
 * platforms JNA runs bloom on; checked at load) and {@code size_t} as long.
 *
 * <p>The library is {@code $bloomkit.library} (a system property: a path),
 * else {@code $BLOOM_LIBRARY} (a path), else {@code bloomfilter} on
 * {@code jna.library.path} (the build passes pkg-config's libdir) and the
 * system's paths.
 */
final class BloomNative {
  private BloomNative() {}

  static final NativeLibrary LIBRARY;

  /** MAJOR * 10000 + MINOR * 100 + PATCH of the library release this jar was built for. */
  static final int BUILT_FOR =
      Layout.VERSION_MAJOR * 10000 + Layout.VERSION_MINOR * 100 + Layout.VERSION_PATCH;

  static {
    if (Native.POINTER_SIZE != 8 || Native.SIZE_T_SIZE != 8) {
      throw new UnsupportedOperationException(
          "bloomkit needs a 64-bit platform (pointer and size_t of 8 bytes)");
    }
    String path = System.getProperty("bloomkit.library");
    if (path == null || path.isEmpty()) path = System.getenv("BLOOM_LIBRARY");
    String name = (path == null || path.isEmpty()) ? "bloomfilter" : path;
    try {
      LIBRARY = NativeLibrary.getInstance(name);
    } catch (UnsatisfiedLinkError e) {
      UnsatisfiedLinkError err = new UnsatisfiedLinkError(
          "bloomkit: cannot load libbloomfilter (" + e.getMessage() + "); pass "
              + "-Djna.library.path=$(pkg-config --variable=libdir bloom), or set BLOOM_LIBRARY "
              + "to the library file");
      err.initCause(e);
      throw err;
    }
    Native.register(BloomNative.class, LIBRARY);
    String problem = olderThanBuiltFor(bloom_version_number(), BUILT_FOR, String.valueOf(LIBRARY.getFile()));
    if (problem != null) throw new UnsatisfiedLinkError(problem);
  }

  /**
   * Why a loaded library of version {@code loaded} cannot serve a jar built for
   * {@code builtFor}, naming the file the loader picked; null when it can. An
   * older libbloomfilter.so.1 first on the loader's path would otherwise run
   * silently with another release's behaviour.
   */
  static String olderThanBuiltFor(int loaded, int builtFor, String file) {
    if (loaded >= builtFor) return null;
    return "bloomkit: the library loaded from " + file + " is version " + dotted(loaded) + ", older than "
        + dotted(builtFor) + ", which this jar was built against: pass -Djna.library.path=$(pkg-config "
        + "--variable=libdir bloom), or set BLOOM_LIBRARY to the newer library file";
  }

  private static String dotted(int v) {
    return (v / 10000) + "." + (v / 100 % 100) + "." + (v % 100);
  }

  static native void bloom_options_init(long options);

  static native long bloom_options_size();

  static native int bloom_create(long options, long[] out);

  static native void bloom_destroy(long f);

  static native int bloom_clone(long f, long[] out);

  static native int bloom_clear(long f);

  static native int bloom_add(long f, long key, long len);

  static native int bloom_query(long f, long key, long len);

  static native int bloom_test_and_add(long f, long key, long len);

  static native int bloom_remove(long f, long key, long len);

  static native int bloom_add_batch(long f, long keys, long lens, long n);

  static native int bloom_query_batch(long f, long keys, long lens, long n, long results);

  static native int bloom_merge(long dst, long src);

  static native int bloom_intersect(long dst, long src);

  static native int bloom_save(long f, byte[] path);

  static native int bloom_load(byte[] path, long[] out);

  static native int bloom_map(byte[] path, long[] out);

  static native int bloom_serialized_size(long f, long[] size);

  static native int bloom_serialize(long f, long buf, long cap, long[] written);

  static native int bloom_deserialize(long buf, long len, long[] out);

  static native int bloom_get_info(long f, long info);

  static native long bloom_info_size();

  static native int bloom_get_stage_info(long f, int stage, long info);

  static native int bloom_optimal_params(long n, double p, long[] bits, int[] hashes);

  static native double bloom_expected_fp_rate(long n, long bits, int hashes);

  static native Pointer bloom_strerror(int status);

  static native Pointer bloom_last_error();

  static native Pointer bloom_kind_name(int kind);

  static native Pointer bloom_hash_name(int hash);

  static native int bloom_kind_caps(int kind);

  static native int bloom_kind_count();

  static native int bloom_kind_at(int i);

  static native Pointer bloom_version_string();

  static native int bloom_version_number();

  static String text(Pointer p) {
    return p == null ? null : p.getString(0, StandardCharsets.UTF_8.name());
  }

  /** Throw the BloomException for a negative status; return it otherwise. */
  static int check(int status) {
    if (status < 0) {
      String detail = text(bloom_last_error());
      if (detail == null || detail.isEmpty()) detail = text(bloom_strerror(status));
      throw new BloomException(status, detail);
    }
    return status;
  }

  /** A path as the NUL-terminated bytes C takes; a NUL inside is refused (C would stop there). */
  static byte[] path(String path) {
    if (path == null) throw new NullPointerException("path");
    if (path.indexOf('\0') >= 0) throw new IllegalArgumentException("path contains a NUL character");
    byte[] utf8 = path.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[utf8.length + 1];
    System.arraycopy(utf8, 0, out, 0, utf8.length);
    return out;
  }
}
