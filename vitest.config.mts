import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import StartsFirstSequencer from "./test/support/sequencer.mjs";
import { scratchDir } from "./test/support/scratch.mjs";

// Scratch files in memory where Linux has room (test/support/scratch.mts). Set here, before any
// worker, app or cluster starts, so every one of them inherits it.
const scratch = scratchDir(process.env);
if (scratch) process.env.TMPDIR = scratch;

export const alias = {
  "@": fileURLToPath(new URL(".", import.meta.url)),
  // `server-only` throws outside Next's server bundle; tests run server code directly.
  "server-only": fileURLToPath(new URL("./test/support/empty.ts", import.meta.url)),
};

/** One throwaway PostgreSQL cluster for the run (or TEST_DATABASE_URL), whichever projects ask. */
const postgres = "./test/support/postgres.ts";
/** One built app per worker, under the runtime's test control, for the integration and e2e files. */
const sharedApps = "./test/support/shared-app.ts";

/**
 * The in-process projects first, three files at a time on the two cores: their files wait as
 * much as they compute (a create's time limit, a script they start), so a third worker fills the
 * gaps. Then the projects of the built app, two files at a time: each leases one of the two
 * lanes (an app and a browser, test/support/shared-app.ts) while it runs and gives it back after
 * (lane-release.ts), so two files running together never share one.
 * A test waits for states, and three workers on two cores make it wait longer than alone: 20 s
 * before it counts as hung (a stream's twelve clock-moved looks took over 5 s in CI).
 */
const inProcess = { maxWorkers: 3, sequence: { groupOrder: 0 }, testTimeout: 20_000 };
const builtApp = {
  maxWorkers: 2,
  sequence: { groupOrder: 1 },
  setupFiles: ["./test/support/lane-release.ts"],
  // One module graph per worker here too: a file's imports (Playwright, the test support) are
  // loaded once a worker, not once a file (75 s of imports summed fell to 13 s).
  isolate: false,
};

/**
 * The back end's files in the test's own process. One module graph per worker (isolate: false):
 * most files import the same modules, and none mocks one for good (a file that stubs the
 * environment or resets modules restores them).
 */
export const unit = {
  name: "unit",
  include: ["test/unit/**/*.test.ts"],
  environment: "node" as const,
  globalSetup: [postgres],
  ...inProcess,
  isolate: false,
};

/**
 * The route handlers in process (test/support/in-process.ts): the session secret is given, so
 * none is written into ./data; the runtime's log lines are silent. Every file loads the same
 * route handlers (Next, next-auth and the whole back end, about 3 s a worker).
 */
export const routes = {
  ...unit,
  name: "routes",
  include: ["test/routes/**/*.test.ts"],
  env: { NEXTAUTH_SECRET: "a-session-secret-for-the-routes-tests", LOG_LEVEL: "silent" },
};

/**
 * The client components in jsdom (each file under `// @vitest-environment jsdom`), with Testing
 * Library, their requests answered by the route handlers in process (test/support/components.tsx):
 * a form's rules on its fields without a browser or a server, in about a second where a
 * browser test took ten. The same settings as the routes files, whose back end they load, but
 * no PostgreSQL cluster: their dashboards are SQLite's.
 */
export const components = {
  ...routes,
  name: "components",
  include: ["test/components/**/*.test.tsx"],
  globalSetup: [],
};

/** What every run shares, `npm run check`'s (vitest.check.config.mts) too. */
export const common = {
  // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed on each
  // file's content and the config): a second run transforms only what changed (29 s of
  // transform and 55 s of import summed fell to 6 s and 24 s on `npm run test:fast`).
  experimental: { fsModuleCache: true },
  // Vitest's, then the projects' times, the slowest files and one line for CI.
  reporters: ["default", "./test/support/summary-reporter.ts"],
  sequence: { sequencer: StartsFirstSequencer },
};

export default defineConfig({
  resolve: { alias },
  test: {
    ...common,
    projects: [
      { resolve: { alias }, test: unit },
      { resolve: { alias }, test: routes },
      { resolve: { alias }, test: components },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: [postgres, sharedApps],
          ...builtApp,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          // Room for a loaded machine: a state is waited for, and a slow one is no failure.
          expect: { poll: { timeout: 15_000 } },
          globalSetup: [sharedApps, "./test/support/browsers.ts"],
          ...builtApp,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
