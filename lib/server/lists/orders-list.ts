import "server-only";
import * as z from "zod";
import { ORDER_CSV_HEADER, orderCsvRows } from "@/lib/shared/order-rows";
import { parseOr400, queryOf } from "@/lib/server/http/toolkit";
import { byCreatedAt, orderCompare, ORDER_SORTS } from "@/lib/shared/list-routes";
import { identifier, marketSchema, orderSideSchema, orderStatusSchema, orderTypeSchema, type Order } from "@/lib/spec";
import { EXPORT_SCAN_CAP, stoppedLine, type CsvRows } from "./csv-response";
import { listPage, servicePages } from "./list-page";
import { walkAll } from "./page-walk";
import { journalByRefId, profileNicknames } from "./record-names";
import { limitParam } from "./list-query";
import type { Runtime } from "../runtime";

/**
 * The service's orders (`GET /orders`) for the orders table and its CSV: profile_id, market
 * and status are the service's own filters and go to it; side and type are not, and are
 * applied while the back end walks its pages. The service's List Orders promises no order, so
 * the table's "newest first" is the back end's sort by created_at, never the service's order.
 */

const filters = {
  profile_id: z.optional(identifier("profile_id")),
  market: z.optional(marketSchema),
  status: z.optional(orderStatusSchema),
  side: z.optional(orderSideSchema),
  type: z.optional(orderTypeSchema),
};
const FILTER_NAMES = Object.keys(filters);

export const MAX_ORDERS_PAGE = 200;

const listQuery = z
  .object({
    ...filters,
    sort: z.enum(ORDER_SORTS, { error: `sort must be one of ${ORDER_SORTS.join(", ")}` }).optional(),
    dir: z.enum(["asc", "desc"], { error: "dir must be asc or desc" }).default("desc"),
    limit: limitParam(MAX_ORDERS_PAGE).default(25),
    cursor: z.string().optional(),
  })
  .refine((q) => !q.sort || q.market, {
    path: ["sort"],
    message: "sort needs a market: amounts and prices of different markets are in different assets",
  });

type OrderFilters = z.output<z.ZodObject<typeof filters>>;

const serviceQuery = (q: OrderFilters) => ({ profile_id: q.profile_id, market: q.market, status: q.status });

/** The filters the service does not have, as a test of one order; undefined when none is set. */
function localMatch(q: OrderFilters): ((o: Order) => boolean) | undefined {
  if (!q.side && !q.type) return undefined;
  return (o) => (!q.side || o.side === q.side) && (!q.type || o.type === q.type);
}

/** GET /api/orders: one page of the matching orders, newest first (by created_at) or sorted within one market. */
export async function listOrders(rt: Runtime, url: URL) {
  const q = parseOr400(listQuery, queryOf(url, [...FILTER_NAMES, "sort", "dir", "limit", "cursor"]));
  const { limit, cursor, ...rest } = q;
  return listPage<Order>({
    pages: servicePages(rt.upstream, "/orders", serviceQuery(q)),
    matches: localMatch(q),
    compare: q.sort ? orderCompare(q.sort, q.dir) : byCreatedAt<Order>("desc"),
    limit,
    cursor,
    query: JSON.stringify(rest),
  });
}

/**
 * GET /api/orders/export.csv: every matching order as CSV rows a page at a time, in the order the
 * service lists them (a streamed export holds one page, so it cannot sort; created_at is a column).
 */
export function exportOrders(rt: Runtime, url: URL): { header: string[]; rows: CsvRows } {
  const q = parseOr400(z.object(filters), queryOf(url, FILTER_NAMES));
  const pages = servicePages<Order>(rt.upstream, "/orders", serviceQuery(q));
  return {
    header: ORDER_CSV_HEADER,
    rows: orderRows(rt, walkAll(pages, localMatch(q) ?? (() => true), EXPORT_SCAN_CAP)),
  };
}

async function* orderRows(rt: Runtime, walk: ReturnType<typeof walkAll<Order>>) {
  const nickname = await profileNicknames(rt.upstream);
  let step = await walk.next();
  while (!step.done) {
    const submitters = await journalByRefId(
      rt.db,
      "order",
      step.value.map((o) => o.ref_id ?? ""),
    );
    yield orderCsvRows(step.value, nickname, submitters);
    step = await walk.next();
  }
  if (step.value.truncated) yield [stoppedLine(step.value.scanned, "orders")];
}
