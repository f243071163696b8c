// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.nio.charset.StandardCharsets;

/** Keys as bytes: a String is its UTF-8 encoding, a byte[] itself. */
final class Keys {
  private Keys() {}

  static byte[] bytes(String key) {
    if (key == null) throw new NullPointerException("key");
    return key.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] bytes(byte[] key) {
    if (key == null) throw new NullPointerException("key");
    return key;
  }

  /** An element of a batch list: a byte[] or a String. */
  static byte[] bytes(Object key, int index) {
    if (key instanceof byte[] b) return b;
    if (key instanceof String s) return s.getBytes(StandardCharsets.UTF_8);
    if (key == null) throw new NullPointerException("keys[" + index + "]");
    throw new IllegalArgumentException(
        "keys[" + index + "] is a " + key.getClass().getName() + "; a key is a byte[] or a String");
  }
}
