import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that start and stop processes of their own (kill -9, restarts, two instances, a cold
 * `next dev`, backups of a running app). They spend much of their time waiting on those
 * processes, so they go first, beside the browser files that keep both cores busy. Left to the
 * default order (by project, then by size) they ran last, with one core idle beside them.
 * A stale entry here costs time, never correctness.
 */
export const STARTS_FIRST = [
  "test/integration/process/two-instances.test.ts",
  "test/integration/process/one-instance.test.ts",
  "test/e2e/dev-server.test.ts",
  "test/integration/app/backup.test.ts",
  // npm test's runner, run on fixtures: its checks run at nice 19 and wait for an idle core, about
  // 20 s while the in-process files keep both busy. First, that wait is not the unit project's tail.
  "test/unit/scripts/run-tests.test.ts",
];

function rank(spec: TestSpecification): number {
  const at = STARTS_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return at === -1 ? STARTS_FIRST.length : at;
}

/** Vitest's order (group, project, failed first, slowest or largest first), the files above first in their group. */
export default class StartsFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // Array.prototype.sort is stable: within one rank, vitest's order stays.
    return [...sorted].sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}
