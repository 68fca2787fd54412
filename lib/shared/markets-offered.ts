import { MARKETS, type Market } from "@/lib/spec/enums";

/**
 * The markets the dashboard offers (the ticket, the orders table's filter): the spec's markets
 * that the service lists (GET /markets), in the spec's order. Until the service's list is known,
 * or when it lists none of them, the spec's own: a service without one of them (the spec's
 * GOLDUSD) narrows the choice and breaks no page. A market only the service lists is never
 * offered: the spec's rules do not cover it, so its orders are shown read-only.
 */
export function marketsOffered(listed: readonly { market: string }[] | undefined): readonly Market[] {
  if (!listed) return MARKETS;
  const names = new Set(listed.map((m) => m.market));
  const offered = MARKETS.filter((m) => names.has(m));
  return offered.length > 0 ? offered : MARKETS;
}
