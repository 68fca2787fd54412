import "server-only";
import { MARKET_POLL_MS, type MarketData } from "@/lib/shared/market-polling";
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from "./client";

/**
 * Identical GETs in flight at the same moment share one call to the service: a page loaded on
 * many screens at once, or the watcher and a page asking for the same ticker, cost one request.
 * Only reads are shared; a create or a cancel is always its own call.
 *
 * `keepMs` keeps a successful answer shared for a while after it arrives: every screen on the
 * orders page polls its market's book each second, and they should cost the service one call
 * a second between them, not one each (the book's limit is 10 a second for the whole desk).
 * A write (a create, a cancel) may change any of them, so once it is answered nothing shared
 * before it is handed out again: the next read asks the service.
 */
export function singleFlight(
  client: UpstreamClient,
  { keepMs = () => 0 }: { keepMs?: (request: UpstreamRequest) => number } = {},
): UpstreamClient {
  type Flight = { answer: Promise<UpstreamResponse>; callers: number; kept: boolean; answered: boolean };
  const inFlight = new Map<string, Flight>();
  return {
    request(request) {
      if (request.method !== "GET") {
        const answer = client.request(request);
        const forgetAll = () => inFlight.clear();
        answer.then(forgetAll, forgetAll);
        return answer;
      }
      const key = keyOf(request);
      let flight = inFlight.get(key);
      // A fresh read joins a call still on its way, never an answer already kept.
      if (!flight || (request.fresh && flight.answered)) {
        const keep = keepMs(request);
        const answer = client.request(request);
        const started: Flight = { answer, callers: 0, kept: keep > 0, answered: false };
        const forget = () => inFlight.get(key) === started && inFlight.delete(key);
        answer.then((res) => {
          started.answered = true;
          if (keep > 0 && res.status === 200) setTimeout(forget, keep).unref();
          else forget();
        }, forget);
        flight = started;
        inFlight.set(key, flight);
      }
      flight.callers++;
      const shared = flight;
      // Callers may change the body they get (sort, slice): each sharer gets its own copy, and so
      // does the first caller of a kept answer, which others may still join.
      return shared.answer.then((res) =>
        shared.kept || shared.callers > 1 ? { ...res, body: structuredClone(res.body) } : res,
      );
    },
  };
}

/** A screen's next poll may come this much early (timers, the answer's trip). */
const POLL_SLACK_MS = 100;
const MARKET_DATA = /^\/markets\/[^/]+\/(order-book|recent-executions|ticker)$/;

/** How long an answer to `request` may be shared after it arrives: market data, nearly a screen's poll period. */
export function marketDataKeep(request: UpstreamRequest): number {
  const kind = MARKET_DATA.exec(request.path)?.[1] as MarketData | undefined;
  return kind ? MARKET_POLL_MS[kind] - POLL_SLACK_MS : 0;
}

/** The path and its query, parameters in a canonical order. */
function keyOf(request: UpstreamRequest): string {
  const params = Object.entries(request.query ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${request.path}?${JSON.stringify(params)}`;
}
