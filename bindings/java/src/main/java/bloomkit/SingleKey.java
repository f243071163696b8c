// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;

/**
 * A single key copied into native memory for one call. Keys up to 4 KiB go
 * through a per-thread block written by a direct ByteBuffer view (a JVM
 * copy); longer ones get a block of their own, freed after the call.
 * Passing the byte[] to JNA instead copied it in and back out through JNI
 * on every call.
 */
final class SingleKey {
  private static final int LOCAL = 4096;
  private static final ThreadLocal<SingleKey> SCRATCH = ThreadLocal.withInitial(SingleKey::new);

  private final Memory local = new Memory(LOCAL);
  private final ByteBuffer view = local.getByteBuffer(0, LOCAL);
  private final long localAddress = Memory.nativeValue(local);
  private Memory own;

  static SingleKey of(byte[] key) {
    SingleKey k = SCRATCH.get();
    if (key.length <= LOCAL) {
      k.view.clear();
      k.view.put(key);
    } else {
      k.own = new Memory(key.length);
      k.own.write(0, key, 0, key.length);
    }
    return k;
  }

  long address() {
    return own != null ? Memory.nativeValue(own) : localAddress;
  }

  void release() {
    if (own != null) {
      own.close();
      own = null;
    }
  }
}
