"use client";

import type { Query, QueryClient } from "@tanstack/react-query";
import type { Order } from "@/lib/spec/order";
import type { Transfer } from "@/lib/spec/transfer";
import { setLiveStatus as setStatus } from "./live-status";
import { isOlderState } from "../shared/record-freshness";
import { isOlderParent } from "../shared/parent-order-rows";
import type { ParentOrder } from "../shared/parent-order";
import { parentOrderKeys } from "./parent-orders";
import { keys, type Balance } from "./queries";

/**
 * The page's one EventSource on GET /api/events, written into react-query's cache. While it is
 * up, the streamed queries stop polling (live-status.ts); while it is down they poll again, and
 * the header says "Reconnecting".
 */

/** Waits this long after the screen's queries change before opening a stream for the new screen. */
const SETTLE_MS = 250;
/** After a refusal (signed out, 4xx) EventSource stops; try again after this. */
const REOPEN_MS = 5_000;

/**
 * Opens the page's stream, and opens it again when what the screen shows changes; answers the
 * function that closes it. Loaded after the page's first script (components/shell/live-updates.tsx).
 */
export function startLiveEvents(client: QueryClient): () => void {
  let source: EventSource | undefined;
  let url = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wasDown = false;

  // Make before break: the stream for the new screen opens before the open one closes, so an
  // event published while the new one connects (its profiles are checked first) still arrives
  // on the old one. An event seen on both is applied twice, which changes nothing.
  let serving: EventSource[] = [];
  const retire = () => {
    for (const old of serving) old.close();
    serving = [];
  };
  const open = () => {
    if (source?.readyState === EventSource.OPEN) serving.push(source);
    else source?.close();
    const es = new EventSource(url);
    source = es;
    es.onopen = () => {
      retire();
      setStatus("up");
      // Events missed while down: read the screen again once.
      if (wasDown) void client.invalidateQueries({ predicate: isStreamed });
      wasDown = false;
    };
    es.onerror = () => {
      if (es !== source) return; // a replaced stream says nothing of the current one
      retire();
      if (!wasDown) {
        wasDown = true;
        setStatus("down");
        // Polling resumes from the next fetch, which re-reads the interval.
        void client.invalidateQueries({ predicate: isStreamed });
      }
      if (es.readyState === EventSource.CLOSED) timer = setTimeout(open, REOPEN_MS);
    };
    for (const [name, apply] of Object.entries(HANDLERS)) {
      es.addEventListener(name, (e) => apply(client, JSON.parse((e as MessageEvent<string>).data) as unknown));
    }
  };

  const follow = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const next = streamUrl(client);
      if (next === url && source && source.readyState !== EventSource.CLOSED) return;
      url = next;
      open();
    }, SETTLE_MS);
  };

  const unsubscribe = client.getQueryCache().subscribe((e) => {
    if (e.type === "observerAdded" || e.type === "observerRemoved") follow();
  });
  follow();
  return () => {
    unsubscribe();
    clearTimeout(timer);
    retire();
    source?.close();
    setStatus("connecting");
  };
}

/** `/api/events?profiles=..&markets=..`: the balances and tickers some component on screen shows. */
function streamUrl(client: QueryClient): string {
  const shown = (kind: string) =>
    [
      ...new Set(
        client
          .getQueryCache()
          .findAll({ queryKey: [kind], predicate: (q) => q.getObserversCount() > 0 })
          .map((q) => String(q.queryKey[1]))
          .filter(Boolean),
      ),
    ].sort();
  const params = new URLSearchParams();
  for (const p of shown("balances")) params.append("profiles", p);
  for (const m of shown("ticker")) params.append("markets", m);
  const q = params.toString();
  return q ? `/api/events?${q}` : "/api/events";
}

const STREAMED = new Set(["orders", "transfers", "balances", "ticker", "approvals", "batches", "parent-orders"]);
const isStreamed = (q: Query) => STREAMED.has(String(q.queryKey[0]));

interface Listed<T> {
  items: T[];
  extra?: T[];
}

const isList = <T>(data: Listed<T> | T): data is Listed<T> =>
  typeof data === "object" && data !== null && "items" in data;

/**
 * Puts `record` in place of its older self in every cached list of `kind`; a list without it is
 * read again. A state older than the one shown (events can cross on the way) changes nothing.
 */
function upsert<T extends Order | Transfer>(client: QueryClient, kind: "orders" | "transfers", record: T): void {
  const replaces = (r: T) => r.id === record.id && !isOlderState(record, r);
  for (const query of client.getQueryCache().findAll({ queryKey: [kind] })) {
    const data = query.state.data as Listed<T> | T | undefined;
    if (!data) {
      // Its first read, if under way, may have been answered before this record existed.
      if (query.state.fetchStatus === "fetching") readAgain(client, query);
      continue;
    }
    if (!isList(data)) {
      if (replaces(data)) client.setQueryData(query.queryKey, record);
      continue;
    }
    const swap = (list: T[] | undefined) => list?.map((r) => (replaces(r) ? record : r));
    const found = [...data.items, ...(data.extra ?? [])].some((r) => r.id === record.id);
    if (found) client.setQueryData(query.queryKey, { ...data, items: swap(data.items), extra: swap(data.extra) });
    // New to this list: whether it belongs (filters, sort, page) is the server's to say. Shown
    // in it, but with a read under way: that read may answer the older state over this one.
    if (!found || query.state.fetchStatus === "fetching") readAgain(client, query);
  }
  // A result card opened after this event (its create's answer may arrive later than the
  // watcher's news of it) starts from the newer state, not the answer's.
  const one = kind === "orders" ? keys.order(record.id) : keys.transfer(record.id);
  if (client.getQueryData(one) === undefined) client.setQueryData(one, record);
}

/** Queries to read once more when their read under way ends. */
const rereads = new WeakSet<Query>();

/**
 * Reads `query` again for an event it does not reflect. A read under way is never cancelled
 * for it: while other people's orders arrive faster than a list is read (a busy desk, a slow
 * service), cancelling would restart the read at each event and the list would never come. The
 * read under way ends, and one more read follows for every event that came meanwhile.
 */
function readAgain(client: QueryClient, query: Query): void {
  const refetch = () => void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  if (query.state.fetchStatus !== "fetching") return refetch();
  if (rereads.has(query)) return;
  rereads.add(query);
  const unsubscribe = client.getQueryCache().subscribe((e) => {
    if (e.query !== query || (e.type !== "removed" && query.state.fetchStatus === "fetching")) return;
    unsubscribe();
    rereads.delete(query);
    if (e.type !== "removed") refetch();
  });
}

/** What each event (its `data` the record as JSON) does to the cache; exported for its tests. */
export const HANDLERS: Record<string, (client: QueryClient, data: unknown) => void> = {
  order: (client, order) => upsert(client, "orders", order as Order),
  transfer: (client, transfer) => upsert(client, "transfers", transfer as Transfer),
  approval: (client) => {
    for (const query of client.getQueryCache().findAll({ queryKey: ["approvals"] })) readAgain(client, query);
  },
  // A batch moved on (its rows may be left out): that batch, and the list of batches, are read again.
  batch: (client, data) => {
    const id = (data as { id?: unknown }).id;
    for (const query of client.getQueryCache().findAll({ queryKey: ["batches"] })) {
      const [, which, of] = query.queryKey;
      if (which !== "one" || of === id) readAgain(client, query);
    }
  },
  // A parent order as it stands (issue 29): its page's, and in the list of parents, in place of
  // its older self; a list without it (a new parent) is read again.
  parent_order: (client, data) => {
    const parent = data as ParentOrder;
    const one = parentOrderKeys.one(parent.id);
    const shown = client.getQueryData<ParentOrder>(one);
    if (!shown || !isOlderParent(parent, shown)) client.setQueryData(one, parent);
    for (const query of client.getQueryCache().findAll({ queryKey: parentOrderKeys.list, exact: true })) {
      const items = query.state.data as ParentOrder[] | undefined;
      if (!items) {
        if (query.state.fetchStatus === "fetching") readAgain(client, query);
        continue;
      }
      const found = items.find((p) => p.id === parent.id);
      if (found && !isOlderParent(parent, found)) {
        client.setQueryData(
          query.queryKey,
          items.map((p) => (p.id === parent.id ? parent : p)),
        );
      }
      if (!found || query.state.fetchStatus === "fetching") readAgain(client, query);
    }
  },
  balances: (client, data) => {
    const b = data as { profile_id: string; items: Balance[] };
    client.setQueryData(keys.balances(b.profile_id), b.items);
  },
  ticker: (client, data) => client.setQueryData(keys.ticker((data as { market: string }).market), data),
};
