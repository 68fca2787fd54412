import "server-only";
import type { Kysely } from "kysely";
import type { CreateKind } from "@/lib/shared/policy";
import { addDecimal } from "@/lib/spec";
import { waitingValuesOf } from "../../db/approvals";
import { unsentBatchValues } from "../../db/batches";
import { parentOrderValues } from "../../db/parent-orders";
import type { Database } from "../../db/schema";
import { isTransferValue, mayBeTransferValue } from "../../db/transfer-value";
import { recipientElsewhereOf, refIdOf, type Create } from "../create";

/**
 * A person's running totals of one kind of create, read inside their lock (lib/server/db/person-lock.ts)
 * so that the check and the write that follows are one step:
 * - `unapproved24h`: what they sent without approval in the last 24 hours, for the approval
 *   threshold (so fifty transfers of 9,999 USD do not all pass under a 10,000 USD rule);
 * - `today`: what they sent since 00:00 UTC, approved or not, plus what waits for approval (a
 *   reservation: it is sent the day it is approved), for the daily limit.
 * Sent means journaled and not failed (pending or succeeded): a failed create made nothing.
 * The transfer totals count every order that settled into another profile too, at its value
 * (lib/server/db/transfer-value.ts), so splitting a move across such orders and transfers adds up.
 * A TWAP parent order counts toward the order totals as a whole (lib/server/db/parent-orders.ts):
 * its children are never counted on their own.
 * The create being weighed (`own`), or the batch (`ownBatch`) or parent (`ownParent`), is left
 * out: a retry or an approver's send is not counted against itself.
 */
export interface Totals {
  unapproved24h: string;
  today: string;
}

/** A create, by its kind and ref_id. */
export interface CreateRef {
  kind: CreateKind;
  refId: string;
}

const DAY_MS = 24 * 60 * 60_000;

export async function totalsOf(
  tx: Kysely<Database>,
  who: { email: string; kind: CreateKind; own: CreateRef; ownBatch?: string; ownParent?: string },
  now = new Date(),
): Promise<Totals> {
  const midnight = new Date(now);
  midnight.setUTCHours(0, 0, 0, 0);
  const since = new Date(Math.min(midnight.getTime(), now.getTime() - DAY_MS)).toISOString();
  const noBatches = { reserved: [], unapproved: [] };
  const [sent, waiting, batches, parents] = await Promise.all([
    sentSince(tx, who, since),
    waitingValuesOf(tx, who),
    // A batch's rows not yet sent count as sent: a batch is weighed, and reserved, whole.
    who.kind === "transfer" ? unsentBatchValues(tx, who.email, who.ownBatch) : noBatches,
    // So is a parent order: its whole while it may still send, what it filled once it ended.
    who.kind === "order" ? parentOrderValues(tx, who.email, since, who.ownParent) : [],
  ]);
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const today = midnight.toISOString();
  const sum = (values: (string | null)[]) => values.reduce<string>((s, v) => (v ? addDecimal(s, v) : s), "0");
  const unapproved = sent.filter((r) => r.approval_id === null && r.created_at >= dayAgo).map((r) => r.value_usd);
  const parentsUnapproved = parents.filter((p) => !p.approved && p.created_at >= dayAgo).map((p) => p.value_usd);
  return {
    unapproved24h: sum([...unapproved, ...batches.unapproved, ...parentsUnapproved]),
    today: sum([
      ...sent.filter((r) => r.created_at >= today).map((r) => r.value_usd),
      ...waiting,
      ...batches.reserved,
      ...parents.filter((p) => p.open || p.created_at >= today).map((p) => p.value_usd),
    ]),
  };
}

/** What the person sent of the kind since `since`: journaled, not failed, `own` left out. */
async function sentSince(
  tx: Kysely<Database>,
  who: { email: string; kind: CreateKind; own: CreateRef },
  since: string,
) {
  const query = tx
    .selectFrom("journal")
    .select(["value_usd", "created_at", "approval_id", "kind", "profile_id"])
    .where("user_email", "=", who.email)
    .where("created_at", ">=", since)
    .where("status", "in", ["pending", "succeeded"])
    // A parent order's child is counted with its parent.
    .where("parent_order_id", "is", null)
    .where((eb) => eb.not(eb.and([eb("kind", "=", who.own.kind), eb("ref_id", "=", who.own.refId)])));
  if (who.kind === "order") return query.where("kind", "=", "order").execute();
  const rows = await query.select("request_json").where(mayBeTransferValue).execute();
  return rows.filter(isTransferValue);
}

/**
 * The totals a create is weighed against: those of its kind, and for an order that settles into
 * another profile, the transfer totals as well (it counts toward both; the stricter rule holds it).
 */
export async function totalsFor(
  tx: Kysely<Database>,
  email: string,
  create: Create,
  now: Date,
): Promise<{ totals: Totals; transferTotals?: Totals }> {
  const own = { kind: create.kind, refId: refIdOf(create) };
  const [totals, transferTotals] = await Promise.all([
    totalsOf(tx, { email, kind: create.kind, own }, now),
    recipientElsewhereOf(create) ? totalsOf(tx, { email, kind: "transfer", own }, now) : undefined,
  ]);
  return { totals, ...(transferTotals && { transferTotals }) };
}
