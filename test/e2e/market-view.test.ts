import Decimal from "decimal.js";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keptPage, launchBrowser, screenshot, signInAs, WIDTHS } from "../support/browser";
import { signIn } from "../support/app-server";
import { newRef, smallMarketBuy, TRADING } from "../support/requests";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * The ticket's market beside it: the order book's top levels, whose prices fill the ticket,
 * and a chart of recent trades, both following the market as it moves. The market maker
 * quotes and its flow trader trades, as in a demo; the chart's redraw follows a trade of the
 * trader's own, moved a second on. (That /orders fits at a laptop's and a phone's width,
 * Treasury's balances in the market panel, and is accessible, is checked in the visit of each
 * page: visits.test.ts.)
 */

let app: SharedApp;
let browser: Browser;
beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts): the market maker quotes there.
  app = await resetApp({ SANDBOX_MARKET_MAKER: "on" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function traderPage(width: number = WIDTHS.desk): Promise<{ page: Page; ticket: Locator; ladder: Locator }> {
  const page = await keptPage(browser, { width, height: 1000 });
  await signInAs(page, app.url, "trader@example.com");
  const ladder = page.getByTestId("depth-ladder");
  await expect.poll(() => ladder.locator("tr[data-side='bid']").count(), { timeout: 15_000 }).toBeGreaterThan(0);
  return { page, ticket: page.getByRole("form", { name: "Order ticket" }), ladder };
}

/** "65,000.25" as the decimal it shows. */
const shown = (text: string | null) => new Decimal((text ?? "").replace(/,/g, "").trim());

/** Both sides as the ladder shows them, price, size and running total, read in one moment. */
async function ladderRows(ladder: Locator) {
  const rows = await ladder.evaluate((table) =>
    [...table.querySelectorAll<HTMLTableRowElement>("tr[data-side]")].map((row) => ({
      side: row.dataset.side,
      cells: [...row.cells].map((c) => c.textContent ?? ""),
    })),
  );
  const side = (name: string) =>
    rows
      .filter((r) => r.side === name)
      .map(({ cells: [price, size, total] }) => ({ price: shown(price!), size: shown(size!), total: shown(total!) }));
  return { asks: side("ask"), bids: side("bid") };
}

/**
 * Clicks the best price of a side of the ladder and answers the price it showed, found, read
 * and clicked in one step in the page: the book is requoted every second, and a row found
 * first and clicked after may be another price's, or gone.
 */
const pickBest = (ladder: Locator, side: "ask" | "bid") =>
  ladder.evaluate((table, side) => {
    const buttons = [...table.querySelectorAll<HTMLButtonElement>(`tr[data-side='${side}'] button`)];
    // Asks are shown highest first: the best ask is the last one.
    const best = side === "ask" ? buttons.at(-1) : buttons[0];
    best!.click();
    return best!.textContent;
  }, side);

/** The chart's canvas as an image, to see that it was redrawn. */
const chartPixels = (chart: Locator) =>
  chart.evaluate((el) => [...el.querySelectorAll("canvas")].map((c) => c.toDataURL()).join("|"));

describe("the depth ladder", () => {
  it("shows the book's top levels: asks above bids, best prices at the spread, running totals exact", async () => {
    const { page, ladder } = await traderPage();
    await expect.poll(() => ladder.locator("tr[data-side='ask']").count()).toBeGreaterThan(0);
    const { asks, bids } = await ladderRows(ladder);
    expect(asks.length).toBeLessThanOrEqual(10);
    expect(bids.length).toBeLessThanOrEqual(10);
    // Asks are shown highest first, so the best (lowest) ask sits just above the spread.
    const bestAsk = asks.at(-1)!;
    const bestBid = bids[0]!;
    expect(bestAsk.price.gt(bestBid.price), "the book is not crossed").toBe(true);
    for (let i = 1; i < asks.length; i++) expect(asks[i - 1]!.price.gt(asks[i]!.price)).toBe(true);
    for (let i = 1; i < bids.length; i++) expect(bids[i - 1]!.price.gt(bids[i]!.price)).toBe(true);
    // Each total adds the sizes from the best price outwards.
    const expectRunning = (best: typeof asks) => {
      let sum = new Decimal(0);
      for (const level of best) {
        sum = sum.plus(level.size);
        expect(level.total.toString()).toBe(sum.toString());
      }
    };
    expectRunning(bids);
    expectRunning(asks.toReversed());
    await screenshot(page, "market-view-trader-desk");
    await page.close();
  });

  it("fills the ticket's limit price with a price clicked on the ladder", async () => {
    const { page, ticket, ladder } = await traderPage();
    const price = ticket.getByLabel("Price (USD)", { exact: true });
    await expect.poll(() => price.inputValue()).toBe("");
    const askText = await pickBest(ladder, "ask");
    const said = page.getByTestId("depth-ladder-status");
    expect(await said.textContent()).toMatch(/^Price set to /);
    expect(shown(askText).eq(shown(await price.inputValue()))).toBe(true);
    expect(shown(await pickBest(ladder, "bid")).eq(shown(await price.inputValue()))).toBe(true);

    // A stop-market order takes a stop price, not a limit price.
    await ticket.getByLabel("Order type", { exact: true }).selectOption("STOP_MARKET");
    const stop = ticket.getByLabel("Stop price (USD)", { exact: true });
    expect(shown(await pickBest(ladder, "bid")).eq(shown(await stop.inputValue()))).toBe(true);
    // A market order takes none, and says so.
    await ticket.getByLabel("Order type", { exact: true }).selectOption("MARKET");
    await ladder.locator("tr[data-side='bid'] button").first().click();
    await expect.poll(() => page.getByText("A market order takes no price").count()).toBe(1);
    await page.close();
  });

  it("leaves the price of an order under review as it is", async () => {
    const { page, ticket, ladder } = await traderPage();
    await ticket.getByLabel("Profile", { exact: true }).selectOption({ label: "Trading" });
    await pickBest(ladder, "bid");
    await ticket.getByLabel("Base amount (BTC)", { exact: true }).fill("0.01");
    await ticket.getByRole("button", { name: "Review order" }).click();
    await page.getByTestId("order-review").waitFor();
    const price = ticket.getByLabel("Price (USD)", { exact: true });
    const reviewed = await price.inputValue();
    await pickBest(ladder, "ask");
    expect(await page.getByTestId("depth-ladder-status").textContent()).toMatch(/under review/);
    expect(await price.inputValue()).toBe(reviewed);
    await page.close();
  });

  it("follows the market chosen on the ticket", async () => {
    const { page, ticket } = await traderPage();
    await ticket.getByLabel("Market", { exact: true }).selectOption("ETHEUR");
    await expect.poll(() => page.getByRole("heading", { name: "ETH/EUR market" }).count()).toBe(1);
    await expect
      .poll(() => page.getByTestId("depth-ladder").getByRole("columnheader", { name: "Price (EUR)" }).count())
      .toBe(1);
    await page.close();
  });
});

describe("the price chart", () => {
  it("draws recent trades with TradingView's library and redraws as trades arrive", async () => {
    const { page } = await traderPage();
    const chart = page.getByTestId("price-chart");
    await expect.poll(() => chart.locator("canvas").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const size = await chart.locator("canvas").first().boundingBox();
    expect(size!.width).toBeGreaterThan(100);
    expect(size!.height).toBeGreaterThan(100);
    await expect.poll(() => chart.getAttribute("data-trades"), { timeout: 15_000 }).not.toBe("0");
    await expect.poll(() => chart.getAttribute("data-drawn"), { timeout: 15_000 }).toMatch(/^\d+@\d+$/);
    const [drawn, pixels] = [await chart.getAttribute("data-drawn"), await chartPixels(chart)];
    // A trade a second on, on the runtime's clock: the trader's own, not the flow trader's, who
    // trades one in three seconds or so. Newer points are drawn.
    await app.control.advance(1_000);
    const buy = smallMarketBuy(newRef("chart"), "BTCUSD");
    const res = await (await signIn(app, "trader@example.com")).call("POST", `/api/v2/profiles/${TRADING}/orders`, buy);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expect.poll(() => chart.getAttribute("data-drawn"), { timeout: 15_000 }).not.toBe(drawn);
    const [before, after] = [drawn!, (await chart.getAttribute("data-drawn"))!].map((d) => Number(d.split("@")[1]));
    expect(after).toBeGreaterThan(before!);
    await expect.poll(() => chartPixels(chart), { timeout: 10_000 }).not.toBe(pixels);
    expect(await chart.getAttribute("aria-label")).toMatch(
      /^Price chart of the last \d+ BTC\/USD trades; the last at /,
    );
    await page.close();
  });
});

describe("at the desk's widths", () => {
  it("shows a viewer a note where the ticket would be, and the market to watch (issue 20)", async () => {
    const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
    await signInAs(page, app.url, "viewer@example.com");
    const note = page.getByTestId("read-only-note");
    expect(await note.textContent()).toContain("You can read orders; placing them needs the trader role.");
    expect(await page.getByRole("form", { name: "Order ticket" }).count()).toBe(0);
    const watch = page.getByTestId("market-watch");
    await expect.poll(() => watch.getByTestId("depth-ladder").count()).toBe(1);
    await note.getByRole("link", { name: "See the balances" }).click();
    await page.waitForURL(/\/balances$/);
    await page.close();
  });
});

describe("beside the ticket, the ladder in the room the orders leave (issue 26)", () => {
  /** Whether the box the ladder's levels are in scrolls, its tab stop, and how far the spread is from its middle. */
  async function ladderBoxAt(viewport: { width: number; height: number }) {
    const page = await keptPage(browser, viewport);
    await signInAs(page, app.url, "trader@example.com");
    const box = page.getByTestId("depth-ladder-box");
    await expect.poll(() => box.locator("tr[data-side='bid']").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const measured = await box.evaluate((el) => {
      const spread = [...el.querySelectorAll("td")].find((td) => /^Spread|One side/.test(td.textContent ?? ""))!;
      const [b, s] = [el.getBoundingClientRect(), spread.getBoundingClientRect()];
      return {
        scrolls: el.scrollHeight > el.clientHeight + 1,
        tabIndex: el.tabIndex,
        spreadFromMiddle: Math.abs(s.top + s.height / 2 - (b.top + b.height / 2)),
      };
    });
    await page.close();
    return measured;
  }

  it("at a laptop's 1280 × 800 its ten levels a side scroll, the spread in the middle, reachable by keyboard", async () => {
    const { scrolls, tabIndex, spreadFromMiddle } = await ladderBoxAt({ width: WIDTHS.laptop, height: 800 });
    expect(scrolls, "the levels scroll in the room left").toBe(true);
    expect(tabIndex, "a box that scrolls is reachable by keyboard").toBe(0);
    expect(spreadFromMiddle, "the spread in the middle of the box").toBeLessThan(20);
  });

  it("on a taller screen it shows whole: nothing to scroll, no tab stop", async () => {
    const { scrolls, tabIndex } = await ladderBoxAt({ width: WIDTHS.desk, height: 1200 });
    expect(scrolls).toBe(false);
    expect(tabIndex).toBe(-1);
  });
});
