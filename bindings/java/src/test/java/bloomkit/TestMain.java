// SPDX-License-Identifier: Apache-2.0
package bloomkit;

import java.util.ArrayList;
import java.util.List;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/**
 * Runs the test classes named on the command line like JUnitCore, and also
 * names every test skipped by an assumption (JUnit 4's summary counts those
 * among the passes) so a skip is never mistaken for a pass.
 */
public final class TestMain {
  private TestMain() {}

  public static void main(String[] args) throws Exception {
    List<Class<?>> classes = new ArrayList<>();
    for (String name : args) classes.add(Class.forName(name));
    List<String> skipped = new ArrayList<>();
    JUnitCore core = new JUnitCore();
    core.addListener(new RunListener() {
      @Override
      public void testAssumptionFailure(Failure failure) {
        skipped.add(failure.getDescription().getDisplayName() + ": " + failure.getMessage());
      }

      @Override
      public void testFailure(Failure failure) {
        System.out.println("FAIL " + failure.getDescription().getDisplayName() + ": " + failure.getMessage());
      }

      @Override
      public void testFinished(Description d) {}
    });
    Result r = core.run(classes.toArray(new Class<?>[0]));
    for (Failure f : r.getFailures()) {
      System.out.println("---- " + f.getTestHeader());
      System.out.println(f.getTrace());
    }
    for (String s : skipped) System.out.println("SKIPPED " + s);
    int passed = r.getRunCount() - r.getFailureCount() - skipped.size();
    System.out.printf("java tests: %d passed, %d failed, %d skipped%n", passed, r.getFailureCount(), skipped.size());
    System.exit(r.wasSuccessful() ? 0 : 1);
  }
}
