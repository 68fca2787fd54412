import "server-only";
import type { LimitRefusal, LimitRefusedData } from "@/lib/shared/event-data";
import type { OutboxEvent } from "../../db/outbox";

/** Who and what a refusal was about; the rest is read off its problem. */
export type Refused = Pick<LimitRefusal, "kind" | "ref_id" | "profile_id" | "requested_by" | "problem">;

/**
 * The `limit.refused` event of a refusal by a limit (none for any other refusal), for the audit
 * entry that records it: nothing else is written then, so it goes in that entry's transaction.
 */
export function limitRefusedEvents(action: string, refused: Refused, at: Date): OutboxEvent[] {
  if (action !== "limit.refused") return [];
  const meta = refused.problem.meta ?? {};
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const refusal: LimitRefusal = {
    kind: refused.kind,
    ref_id: refused.ref_id,
    profile_id: refused.profile_id,
    requested_by: refused.requested_by,
    rule: text(meta.rule),
    limit: text(meta.limit),
    value_usd: text(meta.requested),
    detail: refused.problem.detail ?? "",
    problem: refused.problem,
  };
  const data: LimitRefusedData = { refusal };
  return [{ type: "limit.refused", at, data }];
}
