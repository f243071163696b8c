// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import com.sun.jna.Native;

/**
 * {@code bloom_advance}, which the window kind adds to the C API
 * ({@code bloom_status bloom_advance(bloom_filter *f, uint64_t now_ms)}).
 * Bound separately from {@link BloomNative} so a library without it still
 * loads: {@link #AVAILABLE} says whether binding worked.
 */
final class WindowNative {
  private WindowNative() {}

  static final boolean AVAILABLE;

  static {
    boolean ok;
    try {
      BloomNative.LIBRARY.getFunction("bloom_advance");
      Native.register(WindowNative.class, BloomNative.LIBRARY);
      ok = true;
    } catch (UnsatisfiedLinkError e) {
      ok = false;
    }
    AVAILABLE = ok;
  }

  static native int bloom_advance(long f, long nowMs);
}
