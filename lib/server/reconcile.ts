import "server-only";
import { problem } from "@/lib/spec";
import { UNANSWERED_CANCEL } from "./cancels";
import { findByRefId } from "./create/send-once";
import { rowsStillSending } from "./db/batches";
import { childrenStillWorked } from "./db/parent-orders";
import { completeEntry, listPending } from "./db/journal";
import { log } from "./ops/log";
import type { Runtime } from "./runtime";

/**
 * Completes entries a crash left pending: the service is asked by ref_id whether the create
 * went through. Found, the entry succeeds with the record; not found, nothing was created.
 * A cancel has no ref_id at the service: its entry says the answer never came.
 * A row of a batch still sending is left to the batch sender, which sends it again under its
 * ref_id: called failed here, a row that never reached the service would fail, not be sent.
 * So is the child of a parent order still working or paused (lib/server/parent-orders/worker.ts).
 */
export async function reconcilePending(rt: Runtime, startedAt: Date): Promise<number> {
  const listed = await listPending(rt.db, { createdBefore: startedAt });
  const rows = await rowsStillSending(
    rt.db,
    listed.filter((e) => e.kind === "transfer").map((e) => e.ref_id),
  );
  const children = await childrenStillWorked(
    rt.db,
    listed.filter((e) => e.kind === "order").map((e) => e.ref_id),
  );
  const pending = listed.filter(
    (e) => !(e.kind === "transfer" && rows.has(e.ref_id)) && !(e.kind === "order" && children.has(e.ref_id)),
  );
  for (const entry of pending) {
    if (entry.kind === "cancel") {
      const problem = UNANSWERED_CANCEL;
      await completeEntry(rt.db, entry.id, { status: "failed", httpStatus: problem.status, latencyMs: 0, problem });
      continue;
    }
    const record = await findByRefId(rt.upstream, entry.kind, entry.ref_id);
    await completeEntry(
      rt.db,
      entry.id,
      record
        ? { status: "succeeded", httpStatus: 200, latencyMs: 0, record }
        : {
            status: "failed",
            httpStatus: 502,
            latencyMs: 0,
            problem: problem(
              502,
              "Not Sent",
              "The dashboard stopped before the service answered, and the service has no record of this ref_id: nothing was created.",
            ),
          },
    );
  }
  return pending.length;
}

/**
 * Longer than any send takes (its retries give up after 25 s, then one last call and one look-up
 * within the service's time limit): an entry pending this long is nobody's send in flight. It was
 * left undecided (a lockout, the service gone while asking) or by a crash on another instance.
 */
export const STALE_PENDING_MS = 120_000;

/** Entries created before this are stale: pending longer than any send takes. */
export const staleBefore = (now = Date.now()): Date => new Date(now - STALE_PENDING_MS);

/**
 * Runs reconciliation once the service answers (the embedded sandbox starts with this server),
 * then every `sweepEveryMs` for entries left pending longer than STALE_PENDING_MS.
 */
export function reconcileInBackground(rt: Runtime, attempts = 30, delayMs = 2000, sweepEveryMs = 30_000): void {
  const run = (before: Date) =>
    rt.lifecycle
      .track(reconcilePending(rt, before))
      .then((n) => void (n > 0 && log.info({ entries: n }, "journal: reconciled pending entries")));
  const startedAt = new Date(rt.clock.now());
  const stops: (() => void)[] = [];
  const attempt = (left: number) => {
    if (rt.lifecycle.stopping) return;
    run(startedAt).catch((error: unknown) => {
      if (left > 1) stops.push(rt.clock.after(delayMs, () => attempt(left - 1)));
      else log.error({ err: error }, "journal: reconciliation failed");
    });
  };
  stops.push(rt.clock.after(500, () => attempt(attempts)));
  stops.push(
    rt.clock.every(sweepEveryMs, () => {
      if (rt.lifecycle.stopping) return;
      // A service still refusing us is asked again at the next sweep.
      run(staleBefore(rt.clock.now())).catch((error: unknown) =>
        log.warn({ err: error }, "journal: the sweep of pending entries will try again"),
      );
    }),
  );
  // Until the runtime stops: a test's reset, or the shutdown.
  rt.lifecycle.signal.addEventListener("abort", () => stops.forEach((stop) => stop()), { once: true });
}
