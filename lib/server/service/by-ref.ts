import "server-only";
import type { Order, Transfer } from "@/lib/spec";
import type { JournalKind } from "../db/journal";
import { SCOPE, upstream } from "./upstream";

/**
 * The record a create with this ref_id made at the service, if any: the order, or the
 * DEBIT leg of the transfer. Throws when the service cannot say, so that "not found" is
 * never mistaken for "not created".
 */
export async function findByRefId(kind: JournalKind, refId: string): Promise<Order | Transfer | undefined> {
  const order = kind === "order";
  const res = await upstream().request({
    method: "GET",
    path: order ? "/orders" : "/transfer/transfers",
    scopes: order ? SCOPE.readOrder : SCOPE.readTransfer,
    query: { ref_ids: [refId] },
  });
  if (res.status !== 200) throw new Error(`the service answered ${res.status} to a lookup by ref_id`);
  const items = (res.body as { items?: (Order | Transfer)[] }).items ?? [];
  return order ? items[0] : items.find((t) => (t as Transfer).direction === "DEBIT");
}
