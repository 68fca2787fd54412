import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { startApp, type AppServer } from "./app-server";
import { startFaultProxy, type FaultProxy } from "./fault-proxy";

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
export type ProvidedApp = { url: string; port: number; env: Record<string, string> } | { error: string };

declare module "vitest" {
  export interface ProvidedContext {
    sharedApp: ProvidedApp;
  }
}

/**
 * How each project's shared app runs. Integration: behind a fault proxy that never fails (the
 * app talks to "a real service", as startDashboard's does). E2E: the embedded sandbox with its
 * market maker quoting, so market orders fill and charts have trades.
 */
const SETTINGS: Record<string, { viaProxy: boolean; env: Record<string, string> }> = {
  integration: { viaProxy: true, env: {} },
  e2e: { viaProxy: false, env: { SANDBOX_MARKET_MAKER: "on" } },
};

/** The app's time limit for a call to the service behind the proxy (as startDashboard's). */
const SERVICE_TIMEOUT_MS = "2000";

/** vitest globalSetup: starts the project's app, provides "sharedApp", stops it at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const settings = SETTINGS[project.name] ?? { viaProxy: false, env: {} };
  let proxy: FaultProxy | undefined;
  let app: AppServer | undefined;
  try {
    proxy = settings.viaProxy ? await startFaultProxy() : undefined;
    const env = {
      ...(proxy ? { ...proxy.env(), SERVICE_TIMEOUT_MS } : {}),
      ...settings.env,
    };
    app = await startApp(env);
    proxy?.setTarget(app.port);
    project.provide("sharedApp", { url: app.url, port: app.port, env });
  } catch (error) {
    // Provided, not thrown: the files that use it fail with this message; the others run.
    project.provide("sharedApp", { error: error instanceof Error ? error.message : String(error) });
  }
  return async () => {
    await app?.dispose();
    await proxy?.close();
  };
}

/** The project's shared app (its URL and the env it runs with); fails the test if it could not start. */
export function sharedApp(): { url: string; port: number; env: Record<string, string> } {
  const provided = inject("sharedApp");
  if ("error" in provided) throw new Error(`the shared app did not start: ${provided.error}`);
  return provided;
}
