import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "@": fileURLToPath(new URL(".", import.meta.url)),
  // `server-only` throws outside Next's server bundle; tests run server code directly.
  "server-only": fileURLToPath(new URL("./test/support/empty.ts", import.meta.url)),
};

/** One throwaway PostgreSQL cluster for the run (or TEST_DATABASE_URL), whichever projects ask. */
const postgres = "./test/support/postgres.ts";
/** One built app per worker, under the runtime's test control, for the integration and e2e files. */
const sharedApps = "./test/support/shared-app.ts";

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Both cores: two files at a time, from any project. The integration and e2e files of the two
    // workers each use their worker's own app (test/support/shared-app.ts's lanes), so two files
    // running together never share one.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          globalSetup: [postgres],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "routes",
          include: ["test/routes/**/*.test.ts"],
          environment: "node",
          // The route handlers in process (test/support/in-process.ts): the session secret is
          // given, so none is written into ./data; the runtime's log lines are silent.
          env: { NEXTAUTH_SECRET: "a-session-secret-for-the-routes-tests", LOG_LEVEL: "silent" },
          globalSetup: [postgres],
          // One module graph per worker: every file loads the same route handlers (Next, next-auth
          // and the whole back end, about 3 s a file), and each makes a runtime of its own.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: [postgres, sharedApps],
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
