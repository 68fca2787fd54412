import type { Instrumentation } from "next";

/**
 * Runs once when the server starts. `next start` (and the standalone server.js) bind the port
 * first and call this before answering any request, so:
 * 1. a bad configuration stops the process here, exit status 1, with every problem listed
 *    (`npm start` checks the same before the port is even bound: scripts/check-config.ts);
 * 2. every request is stamped with its connection's address and its request id, and logged;
 * 3. SIGTERM and SIGINT stop the server gracefully (lib/server/ops/shutdown.ts);
 * 4. the runtime is built (the embedded sandbox with its market maker starts quoting); journal
 *    entries a crash left pending are reconciled with the service; and approval requests past
 *    their time are expired (and audited) every half minute, whether or not anyone looks.
 *    A database down at start is tried again every few seconds (readiness answers 503 meanwhile);
 * 5. under a test harness only (DASHBOARD_TEST_CONTROL), its control of the runtime is served.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { exitOnInvalidConfiguration } = await import("./lib/server/config-check");
  exitOnInvalidConfiguration();

  const { env } = await import("./lib/server/env");
  const { trustedProxies } = await import("./lib/server/http/peer-address");
  const { watchRequests } = await import("./lib/server/http/incoming");
  const requests = watchRequests(trustedProxies(env.TRUSTED_PROXY_IPS));

  const { builtRuntime, closeRuntime } = await import("./lib/server/runtime");
  const { takeOverStopSignals } = await import("./lib/server/ops/shutdown");
  takeOverStopSignals({
    runtime: builtRuntime,
    servers: () => requests.servers,
    graceMs: env.SHUTDOWN_GRACE_SECONDS * 1000,
    close: closeRuntime,
  });

  const { startRuntime } = await import("./lib/server/ops/start");
  const { log } = await import("./lib/server/ops/log");
  const attempt = () =>
    startRuntime(requests).catch((error: unknown) => {
      log.error({ err: error }, "start: the runtime could not be built; trying again in 5 s");
      setTimeout(attempt, START_RETRY_MS).unref();
    });
  // Only a test harness starts the server with it: the control of the runtime (test-control.ts).
  if (env.DASHBOARD_TEST_CONTROL) {
    const { serveTestControl } = await import("./lib/server/ops/test-control");
    serveTestControl(requests, env.DASHBOARD_TEST_CONTROL);
  }
  await attempt();
}

const START_RETRY_MS = 5_000;

/** A request Next failed to handle (a page that threw while rendering, say): logged with its stack. */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { log } = await import("./lib/server/ops/log");
  log.error(
    { err: error, method: request.method, path: request.path.split("?")[0], route: context.routePath },
    "request failed in Next",
  );
};
