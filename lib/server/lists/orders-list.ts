import "server-only";
import * as z from "zod";
import { heldOrderCsvRow, ORDER_CSV_HEADER, orderCsvRows } from "@/lib/shared/order-rows";
import { AWAITING_APPROVAL, type HeldOrder } from "@/lib/shared/held-requests";
import { parseOr400, queryNamesOf, queryOf } from "@/lib/server/http/toolkit";
import { byCreatedAt, orderCompare, ORDER_SORTS } from "@/lib/shared/list-routes";
import { identifier, marketSchema, ORDER_STATUSES, orderSideSchema, orderTypeSchema, type Order } from "@/lib/spec";
import { EXPORT_SCAN_CAP, stoppedLine, type CsvRows } from "./csv-response";
import { heldOrders } from "./held-requests";
import { listPage, nothingAsked, servicePages } from "./list-page";
import { walkAll } from "./page-walk";
import { journalByRefId, profileNicknames } from "./record-names";
import { arrivalsOfOrders } from "../db/journal";
import { marketTradesOf } from "../quality/market-trades";
import { qualityOf } from "../quality/order-quality";
import type { MarketTrade } from "@/lib/shared/order-quality";
import { limitParam } from "./list-query";
import type { Runtime } from "../runtime";

/**
 * The service's orders (`GET /orders`) for the orders table and its CSV: profile_id, market
 * and status are the service's own filters and go to it; side and type are not, and are
 * applied while the back end walks its pages. The service's List Orders promises no order, so
 * the table's "newest first" is the back end's sort by created_at, never the service's order.
 * Orders the desk's four eyes hold are not the service's yet: the first page carries the matching
 * ones in `held` (lib/server/lists/held-requests.ts), and status AWAITING_APPROVAL asks for them
 * alone, from the approvals table; a status of the service's leaves them out.
 */

const STATUSES = [...ORDER_STATUSES, AWAITING_APPROVAL] as const;

const filters = {
  profile_id: z.optional(identifier("profile_id")),
  market: z.optional(marketSchema),
  status: z.enum(STATUSES, { error: `Order status must be one of ${STATUSES.join(", ")}` }).optional(),
  side: z.optional(orderSideSchema),
  type: z.optional(orderTypeSchema),
};
export const MAX_ORDERS_PAGE = 200;

/** GET /api/orders's query: the filters, the sort, the page (the OpenAPI document's parameters). */
export const ordersListQuery = z
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

/** GET /api/orders/export.csv's query: the filters alone (every match, unsorted, unpaged). */
export const ordersExportQuery = z.object(filters);

type OrderFilters = z.output<z.ZodObject<typeof filters>>;

/** The filter asks for held orders alone: the service is not asked at all. */
const heldOnly = (q: OrderFilters): boolean => q.status === AWAITING_APPROVAL;

/** What the service is asked for, when it is (not heldOnly): AWAITING_APPROVAL is never sent to it. */
const serviceQuery = (q: OrderFilters) => ({
  profile_id: q.profile_id,
  market: q.market,
  status: q.status === AWAITING_APPROVAL ? undefined : q.status,
});

/** Held orders match no status of the service's. */
const heldUnder = (rt: Runtime, q: OrderFilters): Promise<HeldOrder[]> =>
  !q.status || heldOnly(q) ? heldOrders(rt, q) : Promise.resolve([]);

/** The filters the service does not have, as a test of one order; undefined when none is set. */
function localMatch(q: OrderFilters): ((o: Order) => boolean) | undefined {
  if (!q.side && !q.type) return undefined;
  return (o) => (!q.side || o.side === q.side) && (!q.type || o.type === q.type);
}

/**
 * GET /api/orders: one page of the matching orders, newest first (by created_at) or sorted within
 * one market; the first page (no cursor) also carries the matching held orders in `held`.
 */
export async function listOrders(rt: Runtime, url: URL) {
  const q = parseOr400(ordersListQuery, queryOf(url, ...queryNamesOf(ordersListQuery)));
  const { limit, cursor, ...rest } = q;
  const page = heldOnly(q)
    ? nothingAsked<Order>()
    : await listPage<Order>({
        pages: servicePages(rt.upstream, "/orders", serviceQuery(q)),
        matches: localMatch(q),
        compare: q.sort ? orderCompare(q.sort, q.dir) : byCreatedAt<Order>("desc"),
        limit,
        cursor,
        query: JSON.stringify(rest),
      });
  return cursor === undefined ? { ...page, held: await heldUnder(rt, q) } : page;
}

/**
 * GET /api/orders/export.csv: every matching order as CSV rows a page at a time, in the order the
 * service lists them (a streamed export holds one page, so it cannot sort; created_at is a column).
 */
export function exportOrders(rt: Runtime, url: URL): { header: string[]; rows: CsvRows } {
  const q = parseOr400(ordersExportQuery, queryOf(url, ...queryNamesOf(ordersExportQuery)));
  const walk = heldOnly(q)
    ? undefined
    : walkAll(
        servicePages<Order>(rt.upstream, "/orders", serviceQuery(q)),
        localMatch(q) ?? (() => true),
        EXPORT_SCAN_CAP,
      );
  return { header: ORDER_CSV_HEADER, rows: orderRows(rt, q, walk) };
}

/**
 * The held orders' rows first, sent with the service's first page: a service that refuses or fails
 * is then still answered as a problem (csv-response.ts reads the first batch before answering).
 */
async function* orderRows(rt: Runtime, q: OrderFilters, walk: ReturnType<typeof walkAll<Order>> | undefined) {
  const nickname = await profileNicknames(rt.upstream);
  let lead = (await heldUnder(rt, q)).map((h) => heldOrderCsvRow(h, nickname));
  if (!walk) {
    yield lead;
    return;
  }
  const quality = exportQuality(rt);
  let step = await walk.next();
  while (!step.done) {
    const [submitters, qualityOf] = await Promise.all([
      journalByRefId(
        rt.db,
        "order",
        step.value.map((o) => o.ref_id ?? ""),
      ),
      quality(step.value),
    ]);
    yield [...lead, ...orderCsvRows(step.value, nickname, submitters, qualityOf)];
    lead = [];
    step = await walk.next();
  }
  yield step.value.truncated ? [...lead, stoppedLine(step.value.scanned, "orders")] : lead;
}

/**
 * The execution quality of an export's orders, a page at a time, without a call to the service per
 * order: arrivals from the journal (one query a page), fills from the order records themselves,
 * and each market's recent executions read once for the whole export, when a page first needs them.
 */
function exportQuality(rt: Runtime) {
  const trades = new Map<string, Promise<MarketTrade[]>>();
  const tradesOf = (market: string) => {
    let read = trades.get(market);
    if (!read) trades.set(market, (read = marketTradesOf(rt, market)));
    return read;
  };
  const now = new Date(rt.clock.now()).toISOString();
  return async (orders: readonly Order[]) => {
    const markets = [...new Set(orders.map((o) => o.market))];
    const [arrivals, byMarket] = await Promise.all([
      arrivalsOfOrders(rt.db, orders),
      Promise.all(markets.map(async (m) => [m, await tradesOf(m)] as const)).then((pairs) => new Map(pairs)),
    ]);
    return (o: Order) => qualityOf(o, arrivals.get(o.id), byMarket.get(o.market) ?? [], now);
  };
}
