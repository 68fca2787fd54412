import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files the run names at its end. */
const SLOWEST = 10;

/**
 * Ends a run with each project's wall time (from its first file's start to its last file's end)
 * beside the time its files took summed, the ten slowest files and their times (import and
 * tests, as vitest measured them), then one plain line, "Tests: N passed, N failed, N skipped",
 * that CI reads. Skipped tests are counted apart, never as passed; a failing hook or module
 * counts as a failure.
 */
export default class SummaryReporter implements Reporter {
  /** Per project: when its first file started and its last ended (ms since the epoch). */
  private spans = new Map<string, { start: number; end: number }>();

  onTestModuleStart(mod: TestModule): void {
    // The first file's start is the project's.
    if (!this.spans.has(mod.project.name)) this.spans.set(mod.project.name, { start: Date.now(), end: Date.now() });
  }

  onTestModuleEnd(mod: TestModule): void {
    const span = this.spans.get(mod.project.name);
    if (span) span.end = Math.max(span.end, Date.now());
  }

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
    process.stdout.write(projectTimes(modules, this.spans));
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

/** Each project's wall time and its files' time summed, in the order they started. */
export function projectTimes(
  modules: ReadonlyArray<TestModule>,
  spans: ReadonlyMap<string, { start: number; end: number }>,
): string {
  const summed = new Map<string, number>();
  for (const mod of modules) {
    const { collectDuration, duration } = mod.diagnostic();
    summed.set(mod.project.name, (summed.get(mod.project.name) ?? 0) + (collectDuration + duration) / 1000);
  }
  const first = Math.min(...[...spans.values()].map((s) => s.start));
  const lines = [...spans.entries()]
    .sort(([, a], [, b]) => a.start - b.start)
    .map(([name, { start, end }]) => {
      const from = ((start - first) / 1000).toFixed(0).padStart(4);
      const wall = ((end - start) / 1000).toFixed(1).padStart(6);
      return `  ${name.padEnd(11)} from ${from} s: ${wall} s wall, ${(summed.get(name) ?? 0).toFixed(1).padStart(6)} s of files`;
    });
  return lines.length ? `\nThe projects:\n${lines.join("\n")}\n` : "";
}
