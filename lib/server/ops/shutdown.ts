import "server-only";
import type { Server } from "node:http";
import { log } from "./log";
import type { Runtime } from "../runtime";

/**
 * Graceful shutdown on SIGTERM (every rolling deploy) and SIGINT (Ctrl+C):
 *
 * 1. readiness answers 503 and new requests are refused with a 503 problem (the runtime's
 *    lifecycle stops; lib/server/http/incoming.ts refuses, app/api/ready says so);
 * 2. open event streams end with a `retry:` hint, so browsers reconnect to another instance;
 * 3. the leader's advisory lock is released at once, so another instance leads within a second;
 * 4. requests in flight finish (a create until its journal entry is complete), for up to the
 *    grace period (SHUTDOWN_GRACE_SECONDS);
 * 5. the servers and the databases close, and the process exits: 0 when everything in flight
 *    finished, 1 when the grace period ran out first.
 *
 * Next's `next start` (and the standalone server.js) install their own handlers for both
 * signals (next/dist/server/lib/start-server.js): they close the listening socket at once (a
 * new request finds the port closed, not a 503), wait for every connection to end (an event
 * stream never does), and exit 143 / 130. Ours replaces them: see takeOverStopSignals.
 */

export interface ShutdownOptions {
  /** The runtime, when it was built (a start that failed early has none). */
  runtime: () => Promise<Runtime> | undefined;
  /** The HTTP servers to close once requests have finished. */
  servers: () => Iterable<Server>;
  graceMs: number;
  /** Closes the databases, the sandbox and the live hub (runtime.ts's closeRuntime). */
  close: () => Promise<void>;
}

/** Runs the shutdown for `signal`; resolves with the exit status. */
export async function shutDown(signal: string, options: ShutdownOptions): Promise<number> {
  const began = performance.now();
  log.info({ signal, grace_seconds: options.graceMs / 1000 }, "shutdown: begun (readiness 503, new requests refused)");
  // Still being built (a signal during start-up): wait for it, so what it starts is stopped too.
  const rt = await options.runtime()?.catch(() => undefined);
  let drained = true;
  if (rt) {
    rt.lifecycle.begin(signal);
    await rt.live.resign();
    drained = await rt.lifecycle.drained(options.graceMs);
    if (!drained) {
      log.error({ in_flight: rt.lifecycle.inFlight }, "shutdown: the grace period ended with requests still in flight");
    }
  }
  await closeServers(options.servers());
  await options.close();
  log.info({ signal, drained, elapsed_ms: Math.round(performance.now() - began) }, "shutdown: done");
  return drained ? 0 : 1;
}

/** Stops listening and ends the idle keep-alive connections (by now nothing is answered on them). */
async function closeServers(servers: Iterable<Server>): Promise<void> {
  await Promise.all(
    [...servers].map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}

/** How much longer than the grace period closing may take before the process is stopped regardless. */
const CLOSE_ALLOWANCE_MS = 5_000;

/**
 * SIGTERM and SIGINT run `shutDown` once (a second signal while it runs is ignored: a shell
 * sends Ctrl+C to the whole process group, and npm forwards it too). The handlers installed
 * before ours, Next's, are removed. If closing itself hangs, the process exits 1 shortly after
 * the grace period regardless.
 */
export function takeOverStopSignals(
  options: ShutdownOptions,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      log.error({ signal }, "shutdown: closing took too long; stopping now");
      exit(1);
    }, options.graceMs + CLOSE_ALLOWANCE_MS).unref();
    shutDown(signal, options).then(exit, (error: unknown) => {
      log.error({ err: error }, "shutdown: failed");
      exit(1);
    });
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, stop);
  }
}
