import "server-only";
import { FINAL_ORDER_STATUSES, FINAL_TRANSFER_STATUSES, type Order, type Transfer } from "@/lib/spec";
import { log } from "../log";
import type { UpstreamClient } from "../upstream/client";
import { RecordTracker, ValueTracker } from "./diff";
import type { LiveEvent } from "./events";
import type { Watched } from "./interests";

/**
 * How often the watcher reads the orders and transfers: a change reaches the screens within
 * about this (the desk asks for a second, measured by npm run bench:desk).
 */
export const WATCH_EVERY_MS = 500;
/** Balances and tickers are read every this many looks: a second is fresh enough for them, and there are many. */
const VALUES_EVERY_LOOKS = 2;
/** The newest records read each time; a burst larger than this between two looks is caught by the pages' refetch. */
const NEWEST = 100;
/** Open records off the newest page read one by one per look, at most. */
const OFF_PAGE_PER_LOOK = 20;

export interface Watcher {
  start(): void;
  stop(): void;
  /** A record pushed by a create: remembered, so the next look does not announce it again. */
  noted(event: LiveEvent): void;
}

/**
 * The deployment's one reader of the service for the live streams: every WATCH_EVERY_MS it reads
 * only what someone watches (the newest and the still open orders and transfers while any stream
 * is open; the balances and tickers on screen) and publishes what changed.
 */
export function createWatcher(options: {
  upstream: UpstreamClient;
  watched: () => Watched;
  publish: (event: LiveEvent) => void;
  everyMs?: number;
}): Watcher {
  const { upstream, publish } = options;
  const orders = new RecordTracker<Order>((o) => FINAL_ORDER_STATUSES.includes(o.status));
  const transfers = new RecordTracker<Transfer>((t) => FINAL_TRANSFER_STATUSES.includes(t.status));
  const balances = new ValueTracker();
  const tickers = new ValueTracker();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let looks = 0;

  const read = async (path: string, query?: Record<string, string | number>) => {
    const res = await upstream.request({ method: "GET", path, query });
    return res.status === 200 ? res.body : res.status === 404 ? null : undefined;
  };

  const follow = async <T extends { id: string; status: string }>(
    name: "order" | "transfer",
    tracker: RecordTracker<T>,
    listPath: string,
    onePath: (r: T) => string,
  ) => {
    const page = (await read(listPath, { limit: NEWEST })) as { items?: T[] } | undefined;
    if (!page?.items) return;
    for (const record of tracker.page(page.items)) publish({ name, data: record });
    await Promise.all(
      tracker
        .openOffPage(page.items)
        .slice(0, OFF_PAGE_PER_LOOK)
        .map(async (r) => {
          const one = (await read(onePath(r))) as T | null | undefined;
          if (one === null) tracker.forget(r.id);
          else if (one && tracker.note(one)) publish({ name, data: one });
        }),
    );
  };

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
    const valuesDue = looks++ % VALUES_EVERY_LOOKS === 0;
    await Promise.all([
      follow("order", orders, "/orders", (o) => `/profiles/${o.profile_id}/orders/${o.id}`),
      follow("transfer", transfers, "/transfer/transfers", (t) => `/transfer/transfers/${t.id}`),
      valuesDue && lookAtValues(w),
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
    if (running) timer = setTimeout(() => void loop(), wait).unref();
  };

  return {
    start() {
      if (running) return;
      running = true;
      void loop();
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
    noted(event) {
      if (event.name === "order") orders.note(event.data as Order);
      else if (event.name === "transfer") transfers.note(event.data as Transfer);
    },
  };
}
