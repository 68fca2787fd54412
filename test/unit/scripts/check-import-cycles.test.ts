import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/check-import-cycles.mjs", import.meta.url));

const tsconfig = JSON.stringify({
  compilerOptions: { module: "esnext", moduleResolution: "bundler", jsx: "react-jsx", paths: { "@/*": ["./*"] } },
});

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes `files` (path -> source) into the project at `root`. */
function write(files: Record<string, string>) {
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
}

/** The check run at the project's root. */
function run() {
  const result = spawnSync(process.execPath, [script], { cwd: root, encoding: "utf8" });
  const circles = result.stderr
    .split("\n")
    .filter((line) => line.startsWith("Import circle: "))
    .map((line) => line.slice("Import circle: ".length));
  return { status: result.status, stdout: result.stdout, circles };
}

/** The check run at the root of a new project made of `files`. */
function check(files: Record<string, string>) {
  root = mkdtempSync(join(tmpdir(), "import-cycles-"));
  write({ "tsconfig.json": tsconfig, ...files });
  return run();
}

// Each case starts node and loads TypeScript: a second on its own, far more on a busy machine.
describe("scripts/check-import-cycles.mjs", { timeout: 60_000 }, () => {
  it("passes a project whose imports run one way, again at once while no file changes; walks it again once changed, and fails on each circle, printed as a chain of files, passing over types and tests", () => {
    const { status, stdout, circles } = check({
      "lib/a.ts": 'import { b } from "@/lib/b";\nexport const a = b;\n',
      "lib/b.ts": 'import { c } from "./c";\nexport const b = c;\n',
      "lib/c.ts": "export const c = 1;\n",
    });
    expect(circles).toEqual([]);
    expect(stdout).toContain("No import circle in 3 modules.");
    expect(status).toBe(0);
    // Nothing changed: the pass is remembered.
    expect(run()).toMatchObject({ status: 0, stdout: expect.stringContaining("none changed since the last check") });

    // Changed since the pass: walked again.
    write({
      // Through the `@/` alias, a relative path and a component.
      "lib/a.ts": 'import { b } from "@/lib/b";\nexport const a = () => b;\n',
      "lib/b.ts": 'import { c } from "../components/c";\nexport const b = () => c;\n',
      "components/c.tsx": 'import { a } from "@/lib/a";\nexport const c = () => a;\n',
      // A dynamic import and a re-export close circles too.
      "lib/lazy.ts": 'export const load = () => import("./loaded");\n',
      "lib/loaded.ts": 'export { load } from "./lazy";\n',
      // Types alone are gone at run time: no circle.
      "lib/types-a.ts": 'import type { B } from "./types-b";\nexport const a = (x: B) => x;\n',
      "lib/types-b.ts": 'import { a } from "./types-a";\nexport type B = number;\nexport const b = a;\n',
      "lib/inline-a.ts": 'import { type B } from "./inline-b";\nexport const a = (x: B) => x;\n',
      "lib/inline-b.ts": 'import { a } from "./inline-a";\nexport type B = number;\nexport const b = a;\n',
      "lib/retyped-a.ts": 'export type { B } from "./retyped-b";\nexport const a = 1;\n',
      "lib/retyped-b.ts": 'import { a } from "./retyped-a";\nexport type B = number;\nexport const b = a;\n',
      // Nothing imports a test, so tests are left out.
      "test/one.test.ts": 'import "./two.test";\nexport const one = 1;\n',
      "test/two.test.ts": 'import { one } from "./one.test";\nexport const two = one;\n',
    });
    const changed = run();
    expect(changed.circles).toEqual([
      "components/c.tsx -> lib/a.ts -> lib/b.ts -> components/c.tsx",
      "lib/lazy.ts -> lib/loaded.ts -> lib/lazy.ts",
    ]);
    expect(changed.status).toBe(1);
  });
});
