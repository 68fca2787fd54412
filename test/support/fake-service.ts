import type { UpstreamRequest, UpstreamResponse } from "@/lib/server/upstream/client";
import type { FakeAnswer } from "./runtime";

/**
 * A fake service for the create path's unit tests: tickers and books as given, every profile
 * holding plenty of every asset unless `balances` says otherwise (a profile listed as `null` does
 * not exist: 404), lookups by ref_id from `found`, and each create answered by `create`.
 */
export interface FakeService {
  /** market -> [best bid, best ask]; a market left out has no prices ("0"). */
  tickers?: Record<string, readonly [string, string]>;
  /** market -> the book; a market left out has its ticker's two levels, 1000 each. */
  books?: Record<string, { bids: Level[]; asks: Level[] }>;
  /** profile -> asset -> available; null: no such profile. Left out: 1,000,000,000 of anything. */
  balances?: Record<string, Record<string, string> | null>;
  /** What a lookup by ref_id finds. */
  found?: (refId: string) => unknown[];
  /** How a create is answered (default: the record, an id and the request). */
  create?: FakeAnswer;
}

type Level = { price: string; amount: string };

export const level = (price: string, amount = "1000"): Level => ({ price, amount });

export function fakeService(s: FakeService = {}): FakeAnswer {
  return (req: UpstreamRequest): Partial<UpstreamResponse> | Promise<Partial<UpstreamResponse>> => {
    const ticker = /^\/markets\/(\w+)\/ticker$/.exec(req.path);
    if (ticker) {
      const [bid, ask] = s.tickers?.[ticker[1]!] ?? ["0", "0"];
      return { body: { best_bid: level(bid), best_ask: level(ask), last_execution: level("0") } };
    }
    const book = /^\/markets\/(\w+)\/order-book$/.exec(req.path);
    if (book) {
      const given = s.books?.[book[1]!];
      if (given) return { body: given };
      const [bid, ask] = s.tickers?.[book[1]!] ?? [];
      return { body: { bids: bid ? [level(bid)] : [], asks: ask ? [level(ask)] : [] } };
    }
    const balances = /^\/profiles\/([^/]+)\/balances$/.exec(req.path);
    if (balances) {
      const held = s.balances?.[decodeURIComponent(balances[1]!)];
      if (held === null) {
        return {
          status: 404,
          body: { type: "about:blank", title: "Not Found", status: 404, detail: "profile not found" },
        };
      }
      const items = held
        ? Object.entries(held).map(([asset, available]) => ({ asset, available, trading: "0" }))
        : ["USD", "EUR", "SGD", "BTC", "ETH", "LINK", "GOLD", "XYZ"].map((asset) => ({
            asset,
            available: "1000000000",
            trading: "0",
          }));
      return { body: { items } };
    }
    if (req.method === "GET") {
      const refIds = (req.query?.ref_ids as string[] | undefined) ?? [];
      return { body: { items: refIds[0] && s.found ? s.found(refIds[0]) : [] } };
    }
    return s.create ? s.create(req) : { body: { id: "created", ...(req.body as object) } };
  };
}
