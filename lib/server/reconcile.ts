import "server-only";
import { problem } from "@/lib/spec";
import { UNANSWERED_CANCEL } from "./cancels";
import { findByRefId } from "./create/send-once";
import { completeEntry, listPending } from "./db/journal";
import { log } from "./log";
import type { Runtime } from "./runtime";

/**
 * Completes entries a crash left pending: the service is asked by ref_id whether the create
 * went through. Found, the entry succeeds with the record; not found, nothing was created.
 * A cancel has no ref_id at the service: its entry says the answer never came.
 */
export async function reconcilePending(rt: Runtime, startedAt: Date): Promise<number> {
  const pending = await listPending(rt.db, { createdBefore: startedAt });
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

/** Runs reconciliation once the service answers (the embedded sandbox starts with this server). */
export function reconcileInBackground(rt: Runtime, attempts = 30, delayMs = 2000): void {
  const startedAt = new Date();
  const attempt = (left: number) => {
    if (rt.lifecycle.stopping) return;
    reconcilePending(rt, startedAt)
      .then((n) => n > 0 && log.info({ entries: n }, "journal: reconciled pending entries"))
      .catch((error: unknown) => {
        if (left > 1) setTimeout(() => attempt(left - 1), delayMs).unref();
        else log.error({ err: error }, "journal: reconciliation failed");
      });
  };
  setTimeout(() => attempt(attempts), 500).unref();
}
