import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keptPage, launchBrowser, signInAs } from "../support/browser";
import { newRef, resetDashboard, smallMarketBuy, TRADING, type Dashboard } from "../support/dashboard";
import { untilQuoted } from "../support/quotes";
import listMarkets from "../fixtures/service/list-markets.json";
import tickerEmptyBook from "../fixtures/service/ticker-empty-book.json";

/**
 * The orders page fed what the real service may answer and our sandbox does not: a ticker whose
 * levels are null, trades whose match numbers are alphanumeric, a market list without the spec's
 * GOLDUSD, and List Orders with "0" for unused amounts and an order on a market the spec does not
 * name. The app talks to its sandbox through the fault proxy, which reshapes those answers; the
 * live watcher reads them the same way.
 */

const ALWAYS = 1_000_000;
const now = () => new Date().toISOString();

/** Orders the service has and our sandbox never makes, as List Orders shows them. */
const serviceOnlyOrders = () => [
  {
    id: "aaaa1111-5d3a-4b8e-9f41-0a7c2d9e1b04",
    profile_id: TRADING,
    ref_id: "outside-paxg",
    status: "OPEN",
    market: "PAXGUSD",
    side: "BUY",
    type: "LIMIT",
    price: "2315.40",
    base_amount: "1.50000000",
    quote_amount: "0",
    amount_filled: "0",
    volume_weighted_average_price: "0",
    time_in_force: "GTC",
    created_at: now(),
    modified_at: now(),
    is_triggered: false,
  },
  {
    id: "bbbb2222-5d3a-4b8e-9f41-0a7c2d9e1b02",
    profile_id: TRADING,
    ref_id: "outside-market-buy",
    status: "FILLED",
    market: "BTCUSD",
    side: "BUY",
    type: "MARKET",
    price: "0",
    base_amount: "0",
    quote_amount: "500.00",
    amount_filled: "0.05142181",
    volume_weighted_average_price: "9723.50",
    time_in_force: "IOC",
    created_at: new Date(Date.now() - 1000).toISOString(),
    modified_at: now(),
    is_triggered: false,
  },
];

let d: Dashboard;
let browser: Browser;

beforeAll(async () => {
  // The lane's app talking to its sandbox through this file's fault proxy, which rewrites the
  // service's answers; the market maker quotes and trades, so there are trades to chart.
  [d, browser] = await Promise.all([resetDashboard({ env: { SANDBOX_MARKET_MAKER: "on" } }), launchBrowser()]);
  const rewrite = (path: string | RegExp, body: (json: any) => unknown) =>
    d.proxy.fail({ method: "GET", path }, { kind: "rewrite", body }, ALWAYS);
  rewrite("/sandbox/v2/markets/BTCUSD/ticker", (t) => ({ ...t, ...tickerEmptyBook.body, market: t.market }));
  // Alphanumeric match numbers that are no number at all, listed oldest first.
  rewrite("/sandbox/v2/markets/BTCUSD/recent-executions", (r) => ({
    items: (r.items as { match_number: string }[])
      .map((t) => ({ ...t, match_number: `m${t.match_number.toLowerCase()}x` }))
      .reverse(),
  }));
  rewrite("/sandbox/v2/markets", () => listMarkets.body);
  rewrite("/sandbox/v2/orders", (page) =>
    Array.isArray(page.items) && !page.next_page_cursor ? { items: [...serviceOnlyOrders(), ...page.items] } : page,
  );
});

afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

async function ordersPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await keptPage(browser, { width: 1440, height: 1000 });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await signInAs(page, d.url, "trader@example.com");
  return { page, errors };
}

/** What the ticket's market panel shows beside `label`. */
const panelValue = (page: Page, label: string) =>
  page
    .getByRole("form", { name: "Order ticket" })
    .locator("dt", { hasText: label })
    .locator("xpath=following-sibling::dd[1]");

describe("the orders page, fed the service's shapes", () => {
  it("renders the ticket with a ticker whose levels are null: no price, no crash", async () => {
    const { page, errors } = await ordersPage();
    const ticket = page.getByRole("form", { name: "Order ticket" });
    await expect.poll(() => panelValue(page, "Last trade").textContent(), { timeout: 15_000 }).toBe("none");
    // Best bid and ask are read off the order book the ladder draws (not this ticker), so the two agree.
    await expect.poll(() => panelValue(page, "Best bid").textContent()).toMatch(/^[\d,]+\.\d\d$/);
    expect(d.proxy.count({ method: "GET", path: "/sandbox/v2/markets/BTCUSD/ticker" })).toBeGreaterThan(0);
    // The ticket still works: the review opens.
    await ticket.getByLabel("Profile", { exact: true }).selectOption({ label: "Trading" });
    await ticket.getByLabel("Price (USD)", { exact: true }).fill("100.00");
    await ticket.getByLabel("Base amount (BTC)", { exact: true }).fill("0.01");
    await ticket.getByRole("button", { name: "Review order" }).click();
    await page.getByTestId("order-review").waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("charts a market whose trades have alphanumeric ids, the latest by time", async () => {
    const { page, errors } = await ordersPage();
    const chart = page.getByTestId("price-chart");
    // Three trades of the trader's own, a second apart on the runtime's clock, so that the first
    // listed is not the latest (the flow trader's come one in three seconds or so: waited for, 9 s).
    await untilQuoted(d.as.trader, "BTCUSD");
    for (let i = 0; i < 3; i++) {
      const buy = smallMarketBuy(newRef("shape-trade"), "BTCUSD");
      const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, buy);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await d.control!.advance(1_000);
    }
    await expect
      .poll(async () => Number(await chart.getAttribute("data-trades")), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(3);
    await expect.poll(() => chart.getAttribute("data-drawn"), { timeout: 15_000 }).toMatch(/^\d+@\d+$/);
    expect(await chart.getAttribute("data-last-match")).toMatch(/^m[0-9a-z]+x$/);
    // Listed oldest first: the chart's latest trade is one of those with the latest time, not the first listed.
    const latestListed = async () => {
      const res = await page.request.get(`${d.url}/api/v2/markets/BTCUSD/recent-executions`);
      const items = (await res.json()).items as { match_number: string; executed_at: string }[];
      const last = Math.max(...items.map((t) => Date.parse(t.executed_at)));
      return new Set(items.filter((t) => Date.parse(t.executed_at) === last).map((t) => t.match_number));
    };
    await expect
      .poll(
        async () => {
          const [latest, shown] = [await latestListed(), await chart.getAttribute("data-last-match")];
          return latest.has(shown ?? "");
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    // …and not the first listed, which is the oldest.
    const res = await page.request.get(`${d.url}/api/v2/markets/BTCUSD/recent-executions`);
    const first = ((await res.json()).items as { match_number: string }[])[0]!.match_number;
    expect((await latestListed()).has(first)).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("offers the spec's markets the service lists, and shows an order of another market read-only", async () => {
    const { page, errors } = await ordersPage();
    const ticketMarket = page.getByRole("form", { name: "Order ticket" }).getByLabel("Market", { exact: true });
    await expect
      .poll(() => ticketMarket.locator("option").allTextContents(), { timeout: 15_000 })
      .toEqual(["ETH/USD", "BTC/EUR", "BTC/USD"]);

    const table = page.getByRole("table", { name: "Orders" });
    const paxg = table.getByRole("row").filter({ hasText: "PAXG/USD" });
    await expect.poll(() => paxg.count(), { timeout: 15_000 }).toBe(1);
    expect(await paxg.getByRole("button", { name: /^Cancel/ }).count()).toBe(0);
    // A market buy listed with base_amount "0" and price "0": its amount is what it spent, its price "market".
    const marketBuy = table.getByRole("row").filter({ hasText: "bbbb2222" });
    await expect.poll(() => marketBuy.count()).toBe(1);
    const cells = (await marketBuy.locator("td, th").allTextContents()).map((c) => c.replace(/\s+/g, " ").trim());
    expect(cells).toContain("500.00 USD");
    expect(cells).toContain("market");
    expect(cells).not.toContain("0 BTC");
    expect(errors).toEqual([]);
    await page.close();
  });
});
