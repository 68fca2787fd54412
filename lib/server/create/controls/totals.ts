import "server-only";
import type { Kysely } from "kysely";
import type { CreateKind } from "@/lib/shared/policy";
import { addDecimal } from "@/lib/spec";
import { waitingValuesOf } from "../../db/approvals";
import type { Database } from "../../db/schema";

/**
 * A person's running totals of one kind of create, read inside their lock (lib/server/db/person-lock.ts)
 * so that the check and the write that follows are one step:
 * - `unapproved24h`: what they sent without approval in the last 24 hours, for the approval
 *   threshold (so fifty transfers of 9,999 USD do not all pass under a 10,000 USD rule);
 * - `today`: what they sent since 00:00 UTC, approved or not, plus what waits for approval (a
 *   reservation: it is sent the day it is approved), for the daily limit.
 * Sent means journaled and not failed (pending or succeeded): a failed create made nothing.
 * `refId`'s own entries are left out: a retry or an approver's send is not counted against itself.
 */
export interface Totals {
  unapproved24h: string;
  today: string;
}

const DAY_MS = 24 * 60 * 60_000;

export async function totalsOf(
  tx: Kysely<Database>,
  who: { email: string; kind: CreateKind; refId: string },
  now = new Date(),
): Promise<Totals> {
  const midnight = new Date(now);
  midnight.setUTCHours(0, 0, 0, 0);
  const since = new Date(Math.min(midnight.getTime(), now.getTime() - DAY_MS)).toISOString();
  const [sent, waiting] = await Promise.all([
    tx
      .selectFrom("journal")
      .select(["value_usd", "created_at", "approval_id"])
      .where("user_email", "=", who.email)
      .where("kind", "=", who.kind)
      .where("created_at", ">=", since)
      .where("status", "in", ["pending", "succeeded"])
      .where("ref_id", "!=", who.refId)
      .execute(),
    waitingValuesOf(tx, who),
  ]);
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const today = midnight.toISOString();
  const sum = (values: (string | null)[]) => values.reduce<string>((s, v) => (v ? addDecimal(s, v) : s), "0");
  return {
    unapproved24h: sum(sent.filter((r) => r.approval_id === null && r.created_at >= dayAgo).map((r) => r.value_usd)),
    today: sum([...sent.filter((r) => r.created_at >= today).map((r) => r.value_usd), ...waiting]),
  };
}
