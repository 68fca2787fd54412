import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { startApp, type AppServer } from "./app-server";
import { leaseLane } from "./lanes";
import { onePerRun } from "./run-once";
import { testControl, type TestControl } from "./test-control";

/**
 * The built app servers every integration and e2e file shares: one per lane, leased by one file
 * at a time (test/support/lanes.ts), so two files running at once never share one. Started
 * once per run by this globalSetup (whichever of those projects runs first) with the runtime's
 * test control, and handed to the files with `provide`/`inject`, as test/support/postgres.ts
 * hands over the PostgreSQL cluster.
 *
 * A file resets its lane's runtime to its own settings and an empty database (`resetApp`, or
 * `resetDashboard` in test/support/dashboard.ts), moves its clock instead of waiting, and so
 * needs no process of its own. Only a test of the process itself (a kill, a restart, SIGTERM,
 * two instances, the standalone folder, the dev server) starts one, with startApp.
 */

/** As many as the built app's files that run at once (vitest.config.mts's maxWorkers). */
export const LANES = 2;

/**
 * What a test file receives through inject("sharedApps"): where each lane's app is and the
 * folder of the lanes' leases (test/support/lanes.ts), or why there are none.
 */
export type ProvidedApps =
  { locks: string; apps: { url: string; port: number; controlSecret: string; logFile: string }[] } | { error: string };

declare module "vitest" {
  export interface ProvidedContext {
    sharedApps: ProvidedApps;
  }
}

const lanes = onePerRun(
  "shared-apps",
  async () => {
    const started = await Promise.allSettled(
      Array.from({ length: LANES }, () => startApp({}, undefined, { control: true })),
    );
    const apps = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failed = started.find((s) => s.status === "rejected");
    if (failed) {
      await Promise.all(apps.map((app) => app.dispose()));
      throw failed.reason;
    }
    return { apps, locks: mkdtempSync(join(tmpdir(), "dashboard-lanes-")) };
  },
  async ({ apps, locks }: { apps: AppServer[]; locks: string }) => {
    await Promise.all(apps.map((app) => app.dispose()));
    rmSync(locks, { recursive: true, force: true });
  },
);

/** vitest globalSetup: starts the lanes' apps (once per run), provides "sharedApps", stops them at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value, release } = lanes.acquire();
  try {
    const { apps, locks } = await value;
    project.provide("sharedApps", {
      locks,
      apps: apps.map((app) => ({
        url: app.url,
        port: app.port,
        controlSecret: app.controlSecret!,
        logFile: app.logFile!,
      })),
    });
  } catch (error) {
    // Provided, not thrown: the files that use them fail with this message; the others run.
    project.provide("sharedApps", { error: error instanceof Error ? error.message : String(error) });
  }
  return release;
}

export interface SharedApp {
  url: string;
  port: number;
  control: TestControl;
  /** Everything the app has written since it started (its log lines among it). */
  log(): string;
}

/** This file's lane (leased on first use), or undefined in a project without shared apps. */
export function fileLane(): number | undefined {
  const provided = inject("sharedApps");
  if (!provided || "error" in provided) return undefined;
  return leaseLane(provided.locks, provided.apps.length);
}

/** This file's lane's app, as the last reset left it; fails the test if it could not start. */
export function sharedApp(): SharedApp {
  const provided = inject("sharedApps");
  if (!provided) throw new Error("this project has no shared apps: add test/support/shared-app.ts to its globalSetup");
  if ("error" in provided) throw new Error(`the shared apps did not start: ${provided.error}`);
  const lane = provided.apps[leaseLane(provided.locks, provided.apps.length)]!;
  return {
    url: lane.url,
    port: lane.port,
    control: testControl(lane.url, lane.controlSecret),
    log: () => readFileSync(lane.logFile, "utf8"),
  };
}

/**
 * The project's shared app, its runtime reset to `settings` over its start settings, with an
 * empty database: what a file that needs its own settings or a clean state uses instead of a
 * process of its own. Its lane runs one file at a time, so the reset is the file's alone.
 */
export async function resetApp(settings: Record<string, string> = {}): Promise<SharedApp> {
  const app = sharedApp();
  await app.control.reset(settings);
  return app;
}
