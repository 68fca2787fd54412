import "server-only";
import type { CancelRequest } from "@/lib/shared/journal-entry";
import { newRefId } from "@/lib/shared/ref-id";
import { isProblem, problem, type Problem } from "@/lib/spec";
import type { SignedInUser } from "./auth/session";
import { beginEntry, completeEntry, findByResultId, type JournalOutcome } from "./db/journal";
import type { Runtime } from "./runtime";
import { UpstreamError, upstreamProblem, type UpstreamResponse } from "./upstream/client";

/**
 * Cancel Order, journaled like the creates so Activity shows every change the desk asked for:
 * the entry is written before the service is called (who, when, which order and, when the
 * dashboard placed it, what that order was) and completed with the service's answer. A cancel
 * is never retried: the service acknowledges it and the order's status shows the outcome. The
 * request and its outcome are each an entry of the audit trail, as a create's are.
 */
export async function cancelOrder(
  rt: Runtime,
  profileId: string,
  orderId: string,
  user: SignedInUser,
  ip: string | null = null,
): Promise<UpstreamResponse> {
  const placed = await findByResultId(rt.db, "order", orderId);
  const request: CancelRequest = { order_id: orderId, profile_id: profileId, ...(placed && { order: placed.request }) };
  const entry = await beginEntry(rt.db, {
    kind: "cancel",
    // The journal's key for this cancel; each click is its own entry.
    refId: newRefId(),
    userEmail: user.email,
    userRole: user.role,
    profileId,
    request,
    at: new Date(rt.clock.now()),
  });
  const audited = { actor: user, ip, subject: orderId };
  await rt.audit.append({ action: "cancel.requested", ...audited, detail: { ref_id: entry.ref_id, ...request } });
  const started = performance.now();
  const finish = async (outcome: (latencyMs: number) => JournalOutcome) => {
    const done = outcome(performance.now() - started);
    await completeEntry(rt.db, entry.id, done);
    await rt.audit.append({
      action: done.status === "succeeded" ? "cancel.succeeded" : "cancel.failed",
      ...audited,
      detail: {
        ref_id: entry.ref_id,
        profile_id: profileId,
        http_status: done.httpStatus,
        ...(done.status === "failed" && { problem: done.problem }),
      },
    });
  };
  try {
    const res = await rt.upstream.request({ method: "DELETE", path: `/profiles/${profileId}/orders/${orderId}` });
    await finish((latencyMs) =>
      res.status >= 200 && res.status < 300
        ? { status: "succeeded", httpStatus: res.status, latencyMs, record: res.body, resultId: orderId }
        : { status: "failed", httpStatus: res.status, latencyMs, problem: problemOf(res) },
    );
    if (res.status >= 200 && res.status < 300) await pushOrder(rt, profileId, orderId);
    return res;
  } catch (error) {
    const failed = error instanceof UpstreamError ? upstreamProblem(error) : UNEXPECTED;
    await finish((latencyMs) => ({ status: "failed", httpStatus: failed.status, latencyMs, problem: failed }));
    throw error;
  }
}

/**
 * The order as it stands once its cancel is acknowledged (the service answers {}), pushed to
 * every screen now rather than at the watcher's next look. Failing that, the watcher brings it.
 */
async function pushOrder(rt: Runtime, profileId: string, orderId: string): Promise<void> {
  try {
    const res = await rt.upstream.request({ method: "GET", path: `/profiles/${profileId}/orders/${orderId}` });
    if (res.status === 200) rt.live.publish({ name: "order", data: res.body });
  } catch {
    // The service slow or away for a moment: the watcher's next look reads it.
  }
}

const problemOf = (res: UpstreamResponse): Problem =>
  isProblem(res.body) ? res.body : problem(res.status, "Service Error", `The service answered ${res.status}.`);

const UNEXPECTED = problem(500, "Internal Server Error", "The dashboard failed to handle this cancel.");

/** How reconciliation completes a cancel a crash left pending: nothing says whether it reached the service. */
export const UNANSWERED_CANCEL = problem(
  502,
  "No Answer",
  "The dashboard stopped before the service answered this cancel; the order's own status shows whether it was cancelled.",
);
