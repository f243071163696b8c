// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.util.function.ToIntFunction;

/** Lookups shared by the enums of C values ({@link Kind}, {@link HashFunction}). */
final class Names {
  private Names() {}

  /** The constant of a C value, or null. */
  static <E> E byCode(E[] values, ToIntFunction<E> code, int c) {
    for (E e : values) {
      if (code.applyAsInt(e) == c) return e;
    }
    return null;
  }

  /** The constant of a name; IllegalArgumentException naming what for an unknown one. */
  static <E extends CValue> E byLabel(E[] values, String label, String what) {
    for (E e : values) {
      if (e.label().equals(label)) return e;
    }
    throw new IllegalArgumentException("unknown " + what + " \"" + label + "\"");
  }
}
