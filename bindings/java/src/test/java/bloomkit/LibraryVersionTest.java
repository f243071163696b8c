// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * The load-time check: the library the loader found is at least the release
 * this jar was built for, and an older one is refused with its file named.
 */
public class LibraryVersionTest {
  @Test
  public void theLoadedLibraryIsAtLeastTheOneBuiltFor() {
    assertTrue(BloomNative.bloom_version_number() >= BloomNative.BUILT_FOR);
    assertEquals(BloomNative.bloom_version_number(), BloomNative.BUILT_FOR);  // built from this tree
  }

  @Test
  public void anOlderLibraryIsRefusedWithItsFileNamed() {
    String problem = BloomNative.olderThanBuiltFor(299, 300, "/old/libbloomfilter.so.1");
    assertTrue(problem, problem.contains("/old/libbloomfilter.so.1") && problem.contains("0.2.99"));
    assertNull(BloomNative.olderThanBuiltFor(300, 300, "x"));
    assertNull(BloomNative.olderThanBuiltFor(301, 300, "x"));
  }
}
