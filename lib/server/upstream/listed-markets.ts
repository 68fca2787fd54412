import "server-only";
import type { UpstreamClient, UpstreamResponse } from "./client";

/**
 * Market data only for the markets the service lists. The screens value what the desk holds
 * with the spec's markets (GOLD with GOLDUSD), and the service may not have one of them (it
 * lists PAXGUSD): asking its ticker, book or trades anyway is a request the service refuses,
 * every time a page loads. So the service's own list (GET /markets) is read once and again
 * every `refreshMs`, and market data of a market it does not list is answered here with the
 * 404 the service would give, unsent. Until the list is known (or when it cannot be read),
 * every request goes through as before.
 */

const MARKET_DATA = /^\/markets\/([^/]+)\/(?:order-book|recent-executions|ticker)$/;
export const MARKET_LIST_REFRESH_MS = 10 * 60_000;

export function listedMarketsOnly(
  client: UpstreamClient,
  { refreshMs = MARKET_LIST_REFRESH_MS, now = Date.now }: { refreshMs?: number; now?: () => number } = {},
): UpstreamClient {
  let listed: { names: ReadonlySet<string>; readAt: number } | undefined;
  let reading: Promise<void> | undefined;

  const remember = (res: UpstreamResponse) => {
    const markets = (res.body as { markets?: unknown } | null)?.markets;
    if (res.status !== 200 || !Array.isArray(markets)) return;
    const names = markets.map((m) => (m as { market?: unknown } | null)?.market).filter((m) => typeof m === "string");
    listed = { names: new Set(names), readAt: now() };
  };

  /** The list, read when missing or stale; a failed read leaves what was known. */
  async function known(): Promise<ReadonlySet<string> | undefined> {
    if (!listed || now() - listed.readAt >= refreshMs) {
      reading ??= client
        .request({ method: "GET", path: "/markets" })
        .then(remember, () => undefined)
        .finally(() => (reading = undefined));
      await reading;
    }
    return listed?.names;
  }

  return {
    async request(request) {
      const market = request.method === "GET" ? MARKET_DATA.exec(request.path)?.[1] : undefined;
      if (market === undefined) {
        const answer = client.request(request);
        if (request.method === "GET" && request.path === "/markets") void answer.then(remember, () => undefined);
        return answer;
      }
      const names = await known();
      if (!names || names.size === 0 || names.has(decodeURIComponent(market))) return client.request(request);
      return notListed(decodeURIComponent(market));
    },
  };
}

function notListed(market: string): UpstreamResponse {
  const status = 404;
  return {
    status,
    body: {
      type: "about:blank",
      title: "Not Found",
      status,
      detail: `The service does not list the market ${market} (GET /markets): it has no ticker, book or trades`,
      meta: { market },
    },
    headers: new Headers({ "Content-Type": "application/problem+json" }),
  };
}
