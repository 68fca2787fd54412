import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { startApp, type AppServer } from "./app-server";
import { testControl, type TestControl } from "./test-control";

/**
 * One built app server per vitest project, started once by this globalSetup and handed to the
 * test files with `provide`/`inject`, as test/support/postgres.ts hands over the PostgreSQL
 * cluster. Starting `next start` costs seconds of both cores; a file that only signs in and
 * sends requests of its own has no need of a server of its own.
 *
 * To use it in a test file (after `npm run build`):
 *
 *   import { sharedDashboard } from "../support/dashboard";   // signed-in clients per role
 *   beforeAll(async () => { d = await sharedDashboard(); });
 *
 *   import { sharedApp } from "../support/shared-app";          // just the URL (browsers)
 *   const app = sharedApp();
 *
 * Files share this server, and may run at the same time: make what you assert on your own
 * (a fresh ref_id from newRef(), your own amounts, filters on what you created), never a
 * global count, never the policy or another setting everyone reads. A file that needs its own
 * settings (env variables, the fault proxy's faults, a restart or a kill, PostgreSQL, exact
 * counts of what exists) starts its own with startApp/startDashboard and says why in a comment.
 */

/** What a test file receives through inject("sharedApp"): where the app is, or why it is not. */
export type ProvidedApp =
  { url: string; port: number; env: Record<string, string>; controlSecret: string } | { error: string };

declare module "vitest" {
  export interface ProvidedContext {
    sharedApp: ProvidedApp;
  }
}

/**
 * How each project's shared app starts; a file resets it to what it needs. E2E: the embedded
 * sandbox with its market maker quoting, so market orders fill and charts have trades.
 */
const SETTINGS: Record<string, Record<string, string>> = {
  e2e: { SANDBOX_MARKET_MAKER: "on" },
};

/** vitest globalSetup: starts the project's app, provides "sharedApp", stops it at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let app: AppServer | undefined;
  try {
    const env = SETTINGS[project.name] ?? {};
    app = await startApp(env, undefined, { control: true });
    project.provide("sharedApp", { url: app.url, port: app.port, env, controlSecret: app.controlSecret! });
  } catch (error) {
    // Provided, not thrown: the files that use it fail with this message; the others run.
    project.provide("sharedApp", { error: error instanceof Error ? error.message : String(error) });
  }
  return async () => {
    await app?.dispose();
  };
}

export interface SharedApp {
  url: string;
  port: number;
  /** What it was started with (a reset starts from these too). */
  env: Record<string, string>;
  control: TestControl;
}

/** The project's shared app, as it is (someone else's data in it); fails the test if it could not start. */
export function sharedApp(): SharedApp {
  const provided = inject("sharedApp");
  if ("error" in provided) throw new Error(`the shared app did not start: ${provided.error}`);
  return { ...provided, control: testControl(provided.url, provided.controlSecret) };
}

/**
 * The project's shared app, its runtime reset to `settings` over its start settings, with an
 * empty database: what a file that needs its own settings or a clean state uses instead of a
 * process of its own. Files of a project run one at a time, so a reset is the file's alone.
 */
export async function resetApp(settings: Record<string, string> = {}): Promise<SharedApp> {
  const app = sharedApp();
  await app.control.reset(settings);
  return app;
}
