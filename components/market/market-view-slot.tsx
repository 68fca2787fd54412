/** The id of the element the order ticket's market view is drawn into (components/orders/market-panel.tsx). */
export const MARKET_VIEW_SLOT_ID = "market-view";

/**
 * Where the ticket's market (price chart and depth ladder) appears on the page; it keeps the
 * view's height while empty, so the table below does not jump when it arrives.
 */
export function MarketViewSlot() {
  return <div id={MARKET_VIEW_SLOT_ID} className="empty:min-h-[40rem] lg:empty:min-h-[21rem]" />;
}
