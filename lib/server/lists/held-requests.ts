import "server-only";
import {
  heldLegs,
  type HeldLeg,
  type HeldOrder,
  type HeldRequest,
  type HeldTransfer,
} from "@/lib/shared/held-requests";
import type { CreateKind } from "@/lib/shared/policy";
import type { Order, Transfer } from "@/lib/spec";
import { pendingOfKind, type ApprovalRow } from "../db/approvals";
import type { Runtime } from "../runtime";

/**
 * The held creates the blotters show beside the service's records (lib/shared/held-requests.ts),
 * read from the dashboard's approvals table, never from the service: every reader of a table sees
 * the desk's, as GET /api/approvals shows every request to every role. They are few (pending, and
 * they expire), so the tables' filters are applied here to all of them.
 */

/** The order filters a held order can meet: those of its request and profile. */
export type HeldOrderFilters = Partial<Pick<Order, "profile_id" | "market" | "side" | "type">>;

/** The transfer filters a held transfer can meet: its would-be legs' profile, type and asset, and when it was asked. */
export interface HeldTransferFilters {
  profile_ids?: readonly string[];
  type?: Transfer["type"];
  asset?: string;
  /** Asked at or after. */
  from?: string;
  /** Asked before. */
  to?: string;
}

async function held<R>(rt: Runtime, kind: CreateKind): Promise<HeldRequest<R>[]> {
  const rows = await pendingOfKind(rt.db, kind, new Date(rt.clock.now()));
  return rows.map((row) => heldOf<R>(row));
}

const heldOf = <R>(row: ApprovalRow): HeldRequest<R> => ({
  approval_id: row.id,
  ref_id: row.ref_id,
  profile_id: row.profile_id,
  requested_by: row.requested_by,
  requested_name: row.requested_name,
  requested_role: row.requested_role,
  requested_at: row.created_at,
  expires_at: row.expires_at,
  value_usd: row.value_usd === "" ? null : row.value_usd,
  request: JSON.parse(row.request_json) as R,
});

/** A held order under the orders table's filters (side and type included, as for the service's records). */
export const heldOrderMatches =
  (q: HeldOrderFilters) =>
  (h: HeldOrder): boolean =>
    (!q.profile_id || h.profile_id === q.profile_id) &&
    (!q.market || h.request.market === q.market) &&
    (!q.side || h.request.side === q.side) &&
    (!q.type || h.request.type === q.type);

/** A would-be leg under the transfers table's leg filters. */
export const heldLegMatches =
  (q: HeldTransferFilters) =>
  (leg: HeldLeg): boolean =>
    (!q.profile_ids || q.profile_ids.includes(leg.profile_id)) &&
    (!q.type || leg.type === q.type) &&
    (!q.asset || leg.asset === q.asset);

/** Asked within the from/to range: instants with their offsets, compared as instants. */
const askedWithin = (q: HeldTransferFilters, h: HeldTransfer): boolean =>
  (!q.from || Date.parse(h.requested_at) >= Date.parse(q.from)) &&
  (!q.to || Date.parse(h.requested_at) < Date.parse(q.to));

/**
 * A held transfer under the transfers table's filters: shown whole when any leg it would make
 * matches, as the table shows a transfer whose one leg the service listed.
 */
export const heldTransferMatches =
  (q: HeldTransferFilters) =>
  (h: HeldTransfer): boolean =>
    askedWithin(q, h) && heldLegs(h).some(heldLegMatches(q));

export async function heldOrders(rt: Runtime, q: HeldOrderFilters): Promise<HeldOrder[]> {
  return (await held<HeldOrder["request"]>(rt, "order")).filter(heldOrderMatches(q));
}

export async function heldTransfers(rt: Runtime, q: HeldTransferFilters): Promise<HeldTransfer[]> {
  return (await held<HeldTransfer["request"]>(rt, "transfer")).filter(heldTransferMatches(q));
}
