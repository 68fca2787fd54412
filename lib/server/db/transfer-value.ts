import "server-only";
import type { ExpressionBuilder } from "kysely";
import { NAMES_A_RECIPIENT, otherRecipientOf } from "@/lib/shared/recipient-profile";
import type { Database } from "./schema";

/**
 * What counts toward a person's transfer totals, in the journal and among held requests alike:
 * every transfer, and every order that settles into another profile than its own (its
 * recipient_profile_id), since it moves money between profiles as a transfer does. The database
 * narrows the rows (transfers, and orders whose request names a recipient at all); isTransferValue
 * then reads each order's request to decide.
 */

export function mayBeTransferValue<T extends "journal" | "approvals">(eb: ExpressionBuilder<Database, T>) {
  // Both tables have these columns, alike; Kysely cannot type a column of a generic table.
  const e = eb as unknown as ExpressionBuilder<Database, "journal">;
  return e.or([
    e("kind", "=", "transfer"),
    e.and([e("kind", "=", "order"), e("request_json", "like", NAMES_A_RECIPIENT)]),
  ]);
}

export const isTransferValue = (row: { kind: string; profile_id: string; request_json: string }): boolean =>
  row.kind === "transfer" ||
  (row.kind === "order" &&
    otherRecipientOf(row.profile_id, JSON.parse(row.request_json) as Record<string, unknown>) !== undefined);
