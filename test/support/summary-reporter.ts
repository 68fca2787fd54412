import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends a run with one plain line, "Tests: N passed, N failed, N skipped", that CI reads.
 * Skipped tests are counted apart, never as passed; a failing hook or module counts as a failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const mod of modules) {
      count.failed += mod.errors().length;
      for (const suite of mod.children.allSuites()) count.failed += suite.errors().length;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") count.passed++;
        else if (state === "failed") count.failed++;
        else count.skipped++;
      }
    }
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
