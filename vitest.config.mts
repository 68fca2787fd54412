import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "@": fileURLToPath(new URL(".", import.meta.url)),
  // `server-only` throws outside Next's server bundle; tests run server code directly.
  "server-only": fileURLToPath(new URL("./test/support/empty.ts", import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // One file at a time on this 2-core machine: each integration or e2e file runs a built app
    // server and often a browser, which keep both cores busy; two files at once took each about
    // twice as long (no gain overall) and pushed state waits past their time limits.
    maxWorkers: 1,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // A throwaway PostgreSQL cluster (or TEST_DATABASE_URL) for the journal's PostgreSQL half.
          globalSetup: ["./test/support/postgres.ts"],
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
          globalSetup: ["./test/support/postgres.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          // The app's journal runs on PostgreSQL too (test/integration/app/journal.test.ts);
          // one built app for the files that need no settings of their own (test/support/shared-app.ts).
          globalSetup: ["./test/support/postgres.ts", "./test/support/shared-app.ts"],
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
          // One built app for the files that need no settings of their own (test/support/shared-app.ts).
          globalSetup: ["./test/support/shared-app.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
