// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.util.Locale;

/**
 * A constant of one of bloom.h's enums that number their values 1, 2, ... in
 * declaration order and only ever append ({@link Kind}, {@link HashFunction}):
 * the Java constant's position gives the C value, and its name the library's
 * name. LayoutTest checks both against the header.
 */
public interface CValue {
  /** @return the constant's position in its enum (Enum's) */
  int ordinal();

  /** @return the constant's Java name (Enum's) */
  String name();

  /** @return the C value */
  default int code() {
    return ordinal() + 1;
  }

  /** @return the library's name for it ("classic", "xxh3", ...) */
  default String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
