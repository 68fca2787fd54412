/**
 * The market view's height, from the first paint: the chart's and the ladder's (ten rows a side).
 * Beside the ticket (xl) it takes what the screen leaves above the orders blotter's first row:
 * on a laptop's 800 px the ladder scrolls around the spread, on a taller screen it shows whole.
 */
export const MARKET_VIEW_HEIGHT = "h-[53rem] lg:h-[35rem] xl:h-[clamp(15rem,calc(100vh-30rem),35rem)]";

/** The read-only market's height (under the orders, for those who do not trade): the ladder whole. */
export const MARKET_WATCH_HEIGHT = "h-[53rem] lg:h-[35rem]";

/**
 * The rows of a reader's /orders below `lg`: the market watch first, in a row of its whole height
 * (its choice of market 2.75rem, a 0.5rem gap, the view's 53rem), the orders in the row below. The
 * orders come first in the page's HTML (first on a wide screen), so a slow phone paints them before
 * the market's HTML has arrived: the row kept from the first paint stops them jumping down then.
 */
export const MARKET_WATCH_FIRST_ROWS = "max-lg:grid-rows-[56.25rem_auto]";

/** The id of the element the order ticket's market view is drawn into (components/orders/market-panel.tsx). */
export const MARKET_VIEW_SLOT_ID = "market-view";

/**
 * Where the ticket's market (price chart and depth ladder) appears on the page. The view is
 * drawn only in the browser, after the page's first script; the slot has the view's height
 * from the first paint (the chart's and the ladder's, which keeps ten rows a side however deep
 * the book), so the table below never moves. The view and its placeholder fill it.
 */
export function MarketViewSlot() {
  return <div id={MARKET_VIEW_SLOT_ID} className={MARKET_VIEW_HEIGHT} />;
}
