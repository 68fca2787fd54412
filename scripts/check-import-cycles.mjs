// No import circle anywhere: every module can be read (and tested) after what it imports. The
// create path runs in one direction (parse -> bind the ref_id -> repeat question -> controls ->
// hold or send once), and approvals import only its send.
//
// This was ESLint's import/no-cycle, which took most of `npm run lint`'s time; dependency-cruiser
// walks the same graph once, in seconds. What counts is what that rule counted: imports, dynamic
// `import()`s and `export ... from` of the app's own modules (`@/` resolved as tsconfig.json's
// paths say); not packages, and not imports of types alone (`import type`, `import { type A }`,
// `import("./x").T`, and `export type { T } from`, which that rule did count), which are gone at
// run time. Tests are left out: nothing imports them, so they close no circle.
//
// Run from the project's root (`npm run cycles`): prints each circle as a chain of files and
// exits 1 if there is any. A pass is remembered (node_modules/.cache/import-cycles.json) with a
// hash of every file it read: while none changed, the next run passes at once without the walk.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What the walk reads, as `includeOnly` below says: the app's folders and the files at the root. */
const FOLDERS = ["app", "components", "lib", "scripts", "types"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const PASSED = "node_modules/.cache/import-cycles.json";

/** A hash of every file the walk may read, the tsconfig's paths, this script, and the walker's and TypeScript's versions. */
function fingerprint() {
  const files = readdirSync(".", { withFileTypes: true })
    .filter((e) => e.isFile() && (SOURCE.test(e.name) || e.name === "tsconfig.json"))
    .map((e) => e.name);
  for (const folder of FOLDERS) {
    try {
      for (const e of readdirSync(folder, { withFileTypes: true, recursive: true })) {
        if (e.isFile() && SOURCE.test(e.name)) files.push(join(e.parentPath, e.name));
      }
    } catch {
      // A project without this folder.
    }
  }
  const hash = createHash("sha256");
  const self = fileURLToPath(import.meta.url);
  const versions = ["dependency-cruiser", "typescript"].map((p) =>
    join(dirname(self), `../node_modules/${p}/package.json`),
  );
  for (const file of [...files.sort(), self, ...versions]) {
    hash.update(`${file}\0`);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update("(none)");
    }
  }
  return hash.digest("hex");
}

const readPassed = () => {
  try {
    return JSON.parse(readFileSync(PASSED, "utf8"));
  } catch {
    return undefined;
  }
};

const print = fingerprint();
const passed = readPassed();
if (passed?.fingerprint === print) {
  console.log(`No import circle in ${passed.modules} modules (none changed since the last check).`);
  process.exit(0);
}

// Loaded only when the walk runs: TypeScript and the walker take a second to load.
const { cruise } = await import("dependency-cruiser");
const { default: extractTSConfig } = await import("dependency-cruiser/config-utl/extract-ts-config");

/** @type {import("dependency-cruiser").ICruiseOptions} */
const options = {
  validate: true,
  ruleSet: {
    forbidden: [
      {
        name: "no-circular",
        severity: "error",
        from: {},
        to: {
          circular: true,
          viaOnly: { dependencyTypesNot: ["type-only", "type-import", "triple-slash-directive"] },
        },
      },
    ],
  },
  // The app's own folders and the files at the root: no tests, packages or build output.
  includeOnly: { path: "^(app|components|lib|scripts|types)/|^[^/]+\\.(ts|tsx|mts|cts|js|mjs|cjs)$" },
  // Read TypeScript as written, so an `import type` is seen (and passed over) rather than compiled away.
  tsPreCompilationDeps: true,
  tsConfig: { fileName: "tsconfig.json" },
  outputType: "json",
};

const { output } = await cruise(["."], options, {}, { tsConfig: extractTSConfig("tsconfig.json") });
const { summary } = typeof output === "string" ? JSON.parse(output) : output;

const circles = summary.violations
  .filter((v) => v.rule.name === "no-circular")
  .map((v) => [v.from, ...v.cycle.map((step) => step.name)]);

for (const chain of circles) console.error(`Import circle: ${chain.join(" -> ")}`);
if (circles.length > 0) {
  console.error(`${circles.length} import circle(s) in ${summary.totalCruised} modules.`);
  process.exitCode = 1;
} else {
  console.log(`No import circle in ${summary.totalCruised} modules.`);
  mkdirSync(dirname(PASSED), { recursive: true });
  writeFileSync(PASSED, JSON.stringify({ fingerprint: print, modules: summary.totalCruised }));
}
