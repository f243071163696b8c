// SPDX-License-Identifier: Apache-2.0
package bloomkit;

/**
 * A String's UTF-8 written into an existing byte[], byte for byte what
 * {@code String.getBytes(StandardCharsets.UTF_8)} returns (a lone surrogate
 * becomes {@code '?'}), without allocating: with getBytes per key, the
 * batch benchmark spent more CPU in G1 collecting the garbage than in the
 * C call. Encoding itself costs about the same whether by getBytes,
 * getChars or charAt (README, "Where the time goes").
 */
final class Utf8 {
  private Utf8() {}

  /** The most bytes a String of n chars encodes to: 3 a char (a surrogate pair: 4 for 2). */
  static long maxBytes(int chars) {
    return 3L * chars;
  }

  /**
   * Encode s at dst[at...]; dst must have {@link #maxBytes}(s.length()) bytes free there.
   *
   * @return the index after the last byte written
   */
  static int encode(String s, byte[] dst, int at) {
    int n = s.length();
    int i = 0;
    for (; i < n; i++) { // ASCII, the common case: one store a char
      char c = s.charAt(i);
      if (c >= 0x80) break;
      dst[at++] = (byte) c;
    }
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        dst[at++] = (byte) c;
      } else if (c < 0x800) {
        dst[at++] = (byte) (0xc0 | (c >> 6));
        dst[at++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isSurrogate(c)) {
        char d = i + 1 < n ? s.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(d)) {
          int cp = Character.toCodePoint(c, d);
          dst[at++] = (byte) (0xf0 | (cp >> 18));
          dst[at++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
          dst[at++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
          dst[at++] = (byte) (0x80 | (cp & 0x3f));
          i++;
        } else {
          dst[at++] = (byte) '?'; // as getBytes(UTF_8) replaces a lone surrogate
        }
      } else {
        dst[at++] = (byte) (0xe0 | (c >> 12));
        dst[at++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        dst[at++] = (byte) (0x80 | (c & 0x3f));
      }
    }
    return at;
  }
}
