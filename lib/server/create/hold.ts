import "server-only";
import type { Kysely } from "kysely";
import type { Approval } from "@/lib/shared/approval";
import type { SignedInUser } from "../auth/session";
import { approvalView, insertApproval, type ApprovalRow } from "../db/approvals";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";
import { refIdOf, weighedAsTransferNote, type Create } from "./create";
import type { Verdict } from "./controls/verdict";

/**
 * Step 5 (pipeline.ts), when the verdict is hold: a create the controls hold for four eyes is not
 * sent (the verdict send goes to send-once.ts instead). It is written as a PENDING request (in the
 * person's lock, with the check), then audited and pushed to every open screen; the caller answers
 * 202 with it. lib/server/approvals/decisions.ts decides it; the last approval needed sends it
 * through the controls again (pipeline.ts, sendApproved).
 */

type HoldVerdict = Extract<Verdict, { hold: unknown }>["hold"];

/** Writes the held request; `tx` is the person's locked transaction. */
export const writeHold = (tx: Kysely<Database>, user: SignedInUser, create: Create, hold: HoldVerdict, at: Date) =>
  insertApproval(tx, user, {
    at,
    kind: create.kind,
    refId: refIdOf(create),
    profileId: create.profileId,
    request: create.request,
    valueUsd: hold.valueUsd,
    rule: hold.rule,
    holdReason: hold.reason,
    priceGuard: hold.guardConfirmed,
  });

/** Once written: audited, announced, and the approval the 202 answers with. */
export async function announceHold(
  rt: Runtime,
  user: SignedInUser,
  create: Create,
  row: ApprovalRow,
  hold: HoldVerdict,
  repeatOf: string | null,
  ip: string | null,
): Promise<Approval> {
  await rt.audit.append({
    action: "approval.requested",
    actor: user,
    ip,
    subject: row.id,
    detail: {
      kind: row.kind,
      ref_id: row.ref_id,
      request: JSON.parse(row.request_json) as unknown,
      value_usd: hold.valueUsd,
      ...weighedAsTransferNote(create),
      rule: hold.rule,
      ...(hold.reason ? { hold_reason: hold.reason } : {}),
      ...(repeatOf ? { duplicate_of: repeatOf } : {}),
    },
  });
  const approval = await approvalView(rt.db, row);
  rt.live.publish({ name: "approval", data: approval });
  return approval;
}
