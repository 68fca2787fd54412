import "server-only";
import type { MarketTrade } from "@/lib/shared/order-quality";
import type { Execution } from "@/lib/shared/service-shapes";
import type { Runtime } from "../runtime";

/**
 * A market's latest trades as the service's recent executions list them
 * (GET /markets/{market}/recent-executions): what a market VWAP over an order's life is read
 * from. The service keeps only its latest trades there: an older window finds none (null VWAP).
 * Empty when the service does not answer: quality is a report, never a reason to fail a request.
 */
export async function marketTradesOf(rt: Runtime, market: string): Promise<MarketTrade[]> {
  const res = await rt.upstream
    .request({ method: "GET", path: `/markets/${encodeURIComponent(market)}/recent-executions` })
    .catch(() => undefined);
  const items = (res?.body as { items?: unknown } | null)?.items;
  if (res?.status !== 200 || !Array.isArray(items)) return [];
  return (items as Partial<Execution>[]).flatMap((t) =>
    t.price && t.amount && t.executed_at ? [{ price: t.price, amount: t.amount, executed_at: t.executed_at }] : [],
  );
}
