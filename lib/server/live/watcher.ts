import "server-only";
import { systemClock, type Clock } from "../clock";
import { FINAL_ORDER_STATUSES, FINAL_TRANSFER_STATUSES, type Order, type Transfer } from "@/lib/spec";
import { nextCursor, SERVICE_MAX_LIMIT } from "../lists/page-walk";
import { log } from "../ops/log";
import type { QueryValue, UpstreamClient } from "../upstream/client";
import { RecordTracker, ValueTracker } from "./diff";
import type { LiveEvent } from "./events";
import type { Watched } from "./interests";

/**
 * How often the watcher reads the orders and transfers: a change reaches the screens within
 * about this (the desk asks for a second, measured by npm run bench:desk).
 */
export const WATCH_EVERY_MS = 500;
/**
 * Balances, tickers and the lists of open orders and pending transfers are read every this many
 * looks: a second is fresh enough for what was already there, and they are many, or long.
 */
const EVERY_OTHER_LOOK = 2;
/** Records a page of the watcher's reads holds (the newest transfers: their list is documented newest first). */
const NEWEST = 100;
/**
 * Open records off what the lists answered, read one by one per look, at most (the longest
 * unread first): an order that just left the OPEN list, a transfer that just left the PENDING
 * one. Few at a time, so the watcher never spends the read budget the desk's pages wait on
 * (on the looks that read the lists, once a second: 3 of the 32 reads a second, per kind).
 */
export const OFF_PAGE_PER_LOOK = 3;

export interface Watcher {
  start(): void;
  stop(): void;
  /** A record pushed by a create: remembered, so the next look does not announce it again. */
  noted(event: LiveEvent): void;
}

/**
 * The deployment's one reader of the service for the live streams: every WATCH_EVERY_MS it reads
 * only what someone watches (the recent and the still open orders, the newest and the still open
 * transfers, while any stream is open; the balances and tickers on screen) and publishes what changed.
 */
export function createWatcher(options: {
  upstream: UpstreamClient;
  watched: () => Watched;
  publish: (event: LiveEvent) => void;
  everyMs?: number;
  /** Paces the looks (default: the machine's clock); a test moves it. */
  clock?: Pick<Clock, "after">;
}): Watcher {
  const { upstream, publish } = options;
  const orders = new RecordTracker<Order>((o) => FINAL_ORDER_STATUSES.includes(o.status));
  const transfers = new RecordTracker<Transfer>((t) => FINAL_TRANSFER_STATUSES.includes(t.status));
  const balances = new ValueTracker();
  const tickers = new ValueTracker();
  const clock = options.clock ?? systemClock;
  let cancel: (() => void) | undefined;
  let running = false;
  let looks = 0;

  const read = async (path: string, query?: Record<string, string | number>) => {
    const res = await upstream.request({ method: "GET", path, query });
    return res.status === 200 ? res.body : res.status === 404 ? null : undefined;
  };

  /**
   * The records `page` read this look: the changed ones published; when the page holds the
   * open lists too (`complete`), the open ones off it read one by one.
   */
  const follow = async <T extends { id: string; status: string }>(
    name: "order" | "transfer",
    tracker: RecordTracker<T>,
    page: T[] | undefined,
    complete: boolean,
    onePath: (r: T) => string,
  ) => {
    if (!page) return;
    for (const record of tracker.page(page)) publish({ name, data: record });
    if (!complete) return;
    await Promise.all(
      tracker
        .openOffPage(page)
        .slice(0, OFF_PAGE_PER_LOOK)
        .map(async (r) => {
          const one = (await read(onePath(r))) as T | null | undefined;
          if (one === null) tracker.forget(r.id);
          else if (one && tracker.note(one)) publish({ name, data: one });
        }),
    );
  };

  const readOrders = ordersToFollow(upstream);
  const readTransfers = transfersToFollow(upstream);

  const values = async (
    tracker: ValueTracker,
    keys: Set<string>,
    load: (key: string) => Promise<LiveEvent | undefined>,
  ) => {
    tracker.retain(keys);
    await Promise.all(
      [...keys].map(async (key) => {
        const event = await load(key);
        if (event && tracker.changed(key, event.data)) publish(event);
      }),
    );
  };

  const look = async () => {
    const w = options.watched();
    if (w.streams === 0) return;
    // Every other look: the open lists, the balances and tickers (the new records every look).
    const due = looks++ % EVERY_OTHER_LOOK === 0;
    await Promise.all([
      readOrders(due).then((page) =>
        follow("order", orders, page, due, (o) => `/profiles/${o.profile_id}/orders/${o.id}`),
      ),
      readTransfers(due).then((page) => follow("transfer", transfers, page, due, (t) => `/transfer/transfers/${t.id}`)),
      due && lookAtValues(w),
    ]);
  };

  const lookAtValues = (w: Watched) =>
    Promise.all([
      values(balances, w.profiles, async (profile) => {
        const body = (await read(`/profiles/${profile}/balances`)) as { items?: unknown[] } | undefined;
        return body?.items
          ? { name: "balances", topic: profile, data: { profile_id: profile, items: body.items } }
          : undefined;
      }),
      values(tickers, w.markets, async (market) => {
        const body = await read(`/markets/${market}/ticker`);
        return body ? { name: "ticker", topic: market, data: body } : undefined;
      }),
    ]);

  const loop = async () => {
    const began = performance.now();
    try {
      await look();
    } catch (error) {
      // The service unreachable for a moment: the next look tries again.
      log.error({ err: error }, "live: watcher look failed");
    }
    // A steady pace: the next look starts a period after this one started, not after it ended.
    const wait = Math.max(0, (options.everyMs ?? WATCH_EVERY_MS) - (performance.now() - began));
    if (running) cancel = clock.after(wait, () => void loop());
  };

  return {
    start() {
      if (running) return;
      running = true;
      void loop();
    },
    stop() {
      running = false;
      cancel?.();
    },
    noted(event) {
      if (event.name === "order") orders.note(event.data as Order);
      else if (event.name === "transfer") transfers.note(event.data as Transfer);
    },
  };
}

const REFUSED = Symbol("refused");

/**
 * Orders the service's clock says are this recent (or newer) are read each look: List Orders
 * promises no order, so "its first page" is not "the newest orders". The window reaches this far
 * back from the newest created_at seen: an order that shows up in the list late is still read.
 */
export const ORDER_WINDOW_MS = 5 * 60_000;
/** Records one read of a list takes at most (every page of it); past it the one-by-one reads catch up. */
const LIST_CAP = 1000;

/**
 * The orders to look at each look: those of the time window, by `order_time.begin` (List
 * Orders' documented filter), and with `withOpen` every OPEN order, whatever its age, by
 * `status`. A desk's resting orders so cost one list, not a read each: read one by one, twenty
 * a look, they took more than the whole read budget and the desk's own pages queued behind
 * the watcher. A service that refuses the time filter (a 400) gets its first page instead,
 * taken for the newest: the only choice left, said once in the log.
 */
export function ordersToFollow(
  upstream: Pick<UpstreamClient, "request">,
  now: () => number = Date.now,
): (withOpen: boolean) => Promise<Order[] | undefined> {
  let newest: number | undefined;
  let refused = false;
  return async (withOpen) => {
    const [windowed, open] = await Promise.all([
      refused ? undefined : readAll<Order>(upstream, "/orders", { "order_time.begin": since() }),
      withOpen ? readAll<Order>(upstream, "/orders", { status: "OPEN" }) : [],
    ]);
    let items = windowed;
    if (items === REFUSED) {
      refused = true;
      log.warn("live: the service refused order_time.begin on GET /orders; following its first page instead");
    }
    if (refused) items = await firstPage<Order>(upstream, "/orders");
    if (!Array.isArray(items) || !Array.isArray(open)) return undefined;
    for (const o of items) {
      const at = Date.parse(o.created_at);
      if (!Number.isNaN(at) && at > (newest ?? -Infinity)) newest = at;
    }
    return union(items, open);
  };

  function since(): string {
    // "2026-11-23T17:04:28Z", the form List Orders documents, rounded down: the bound is inclusive.
    const ms = (newest ?? now()) - ORDER_WINDOW_MS;
    return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  }
}

/**
 * The transfers to look at each look: the newest page (List Transfers is documented newest
 * first, "reverse chronological ... by creation time") and with `withPending` every PENDING
 * one, by `statuses`.
 */
export function transfersToFollow(
  upstream: Pick<UpstreamClient, "request">,
): (withPending: boolean) => Promise<Transfer[] | undefined> {
  return async (withPending) => {
    const [newest, pending] = await Promise.all([
      firstPage<Transfer>(upstream, "/transfer/transfers"),
      withPending ? readAll<Transfer>(upstream, "/transfer/transfers", { statuses: ["PENDING"] }) : [],
    ]);
    return newest && Array.isArray(pending) ? union(newest, pending) : undefined;
  };
}

/** `first`, then the records of `then` that `first` does not hold. */
function union<T extends { id: string }>(first: T[], then: T[]): T[] {
  const ids = new Set(first.map((r) => r.id));
  return [...first, ...then.filter((r) => !ids.has(r.id))];
}

/** Every page of a list under `query` (bounded by LIST_CAP), REFUSED for a 400, undefined for another failure. */
async function readAll<T>(
  upstream: Pick<UpstreamClient, "request">,
  path: string,
  query: Record<string, QueryValue>,
): Promise<T[] | typeof REFUSED | undefined> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const res = await upstream.request({
      method: "GET",
      path,
      query: { ...query, limit: SERVICE_MAX_LIMIT, page_cursor: cursor },
    });
    if (res.status === 400) return REFUSED;
    const page = res.status === 200 ? listItems<T>(res.body) : undefined;
    if (!page) return undefined;
    items.push(...page);
    cursor = nextCursor({ items: page, next_page_cursor: cursorOf(res.body) }, SERVICE_MAX_LIMIT, cursor);
  } while (cursor && items.length < LIST_CAP);
  return items;
}

/** The first page (NEWEST records) of a list, undefined when it cannot be read. */
async function firstPage<T>(upstream: Pick<UpstreamClient, "request">, path: string): Promise<T[] | undefined> {
  const res = await upstream.request({ method: "GET", path, query: { limit: NEWEST } });
  return res.status === 200 ? listItems<T>(res.body) : undefined;
}

const listItems = <T>(body: unknown): T[] | undefined => {
  const items = (body as { items?: unknown } | null | undefined)?.items;
  return Array.isArray(items) ? (items as T[]) : undefined;
};
const cursorOf = (body: unknown): string | undefined => {
  const cursor = (body as { next_page_cursor?: unknown } | null)?.next_page_cursor;
  return typeof cursor === "string" ? cursor : undefined;
};
