import type { TestSpecification, Vitest } from "vitest/node";
import { describe, expect, it } from "vitest";
import StartsFirstSequencer, { STARTS_FIRST } from "../../support/sequencer.mjs";

/** A file of a project as the sequencer sees it; vitest's cache knows nothing of it (a fresh clone). */
const spec = (moduleId: string, project: string, groupOrder: number) =>
  ({
    moduleId: `/repo/${moduleId}`,
    project: { name: project, config: { sequence: { groupOrder }, isolate: false } },
  }) as unknown as TestSpecification;
const freshCache = {
  config: { root: "/repo" },
  cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
};

describe("the test files' order", () => {
  it("starts the files with processes of their own first in their group, keeping the groups in order", async () => {
    const files = [
      spec("test/unit/a.test.ts", "unit", 0),
      spec("test/e2e/entry.test.ts", "e2e", 1),
      spec("test/integration/app/http.test.ts", "integration", 1),
      spec(STARTS_FIRST[1]!, "integration", 1),
      spec(STARTS_FIRST[0]!, "integration", 1),
      spec("test/routes/b.test.ts", "routes", 0),
    ];
    const sorted = await new StartsFirstSequencer(freshCache as unknown as Vitest).sort(files);
    expect(sorted.map((s) => s.moduleId.replace("/repo/", ""))).toEqual([
      "test/routes/b.test.ts",
      "test/unit/a.test.ts",
      STARTS_FIRST[0],
      STARTS_FIRST[1],
      "test/e2e/entry.test.ts",
      "test/integration/app/http.test.ts",
    ]);
  });

  it("names only files that exist", async () => {
    const { existsSync } = await import("node:fs");
    expect(STARTS_FIRST.filter((path) => !existsSync(path))).toEqual([]);
  });
});
