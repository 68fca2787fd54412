import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files the run names at its end. */
const SLOWEST = 10;

/**
 * Ends a run with the ten slowest files and their times (import and tests, as vitest measured
 * them), then one plain line, "Tests: N passed, N failed, N skipped", that CI reads. Skipped
 * tests are counted apart, never as passed; a failing hook or module counts as a failure.
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
    process.stdout.write(slowest(modules));
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}

/** The slowest files, one a line: seconds, project, path. */
export function slowest(modules: ReadonlyArray<TestModule>, n = SLOWEST): string {
  const timed = modules
    .map((mod) => {
      const { collectDuration, duration } = mod.diagnostic();
      return { seconds: (collectDuration + duration) / 1000, project: mod.project.name, file: mod.relativeModuleId };
    })
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, n);
  if (timed.length === 0) return "";
  const lines = timed.map((t) => `  ${t.seconds.toFixed(1).padStart(6)} s  ${t.project.padEnd(11)} ${t.file}`);
  return `\nThe ${timed.length} slowest files:\n${lines.join("\n")}\n`;
}
