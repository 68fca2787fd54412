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
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          // The app's journal runs on PostgreSQL too (test/integration/app/journal.test.ts).
          globalSetup: ["./test/support/postgres.ts"],
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
