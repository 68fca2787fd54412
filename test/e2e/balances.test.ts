import Decimal from "decimal.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import {
  expectAccessible,
  expectNoSidewaysScroll,
  keptPage,
  launchBrowser,
  LAYOUT_WIDTHS,
  openFromNav,
  screenshot,
  signInAs,
  WIDTHS,
} from "../support/browser";
import { SETTLEMENT, TRADING, TREASURY } from "../support/dashboard";
import { sandboxClient } from "../support/sandbox-server";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * The Balances page for every role, its totals checked against the API's own balances and
 * tickers with decimal.js (not the page's code). The market maker is off, so the only quotes
 * are the ones placed here, and every price holds still while the page is read.
 */

let app: SharedApp;
let browser: Browser;
let trader: Awaited<ReturnType<typeof signIn>>;

Decimal.set({ precision: 80, rounding: Decimal.ROUND_HALF_UP });

/**
 * Resting quotes of the demo customer's, one profile bidding and another asking, never
 * crossing. Of Treasury's USD, only the BTCUSD bid is held: 0.015625 * 64,000 = 1,000 USD.
 */
const QUOTES = [
  { market: "BTCUSD", bid: "64000.00", ask: "64010.25", bidder: TREASURY, size: "0.015625", asker: TRADING },
  { market: "BTCEUR", bid: "58000.00", ask: "58011.11", bidder: TREASURY, size: "0.01", asker: TRADING },
  { market: "BTCSGD", bid: "86000.00", ask: "86000.05", bidder: TREASURY, size: "0.01", asker: TRADING },
  { market: "ETHUSD", bid: "3100.05", ask: "3100.20", bidder: SETTLEMENT, size: "0.01", asker: TRADING },
  { market: "USDPUSD", bid: "0.99", ask: "1.01", bidder: SETTLEMENT, size: "10", asker: TREASURY },
];

beforeAll(async () => {
  // An empty database and the market maker off (as the lane's app starts): only this file's quotes, exact balances.
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
  trader = await signIn(app, "trader@example.com");
  const order = async (profile: string, body: object) => {
    const res = await trader.call("POST", `/api/v2/profiles/${profile}/orders`, { type: "LIMIT", ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  for (const q of QUOTES) {
    await order(q.bidder, { market: q.market, side: "BUY", price: q.bid, base_amount: q.size });
    await order(q.asker, { market: q.market, side: "SELL", price: q.ask, base_amount: "0.01" });
  }
  // A balance with more places than cents, as trades leave them: 24,999,000.0001702 USD available.
  const deposit = await sandboxClient(app.url).call("POST", `/sandbox/profiles/${TREASURY}/deposit`, {
    asset: "USD",
    amount: "0.0001702",
  });
  expect(deposit.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
});

/** "25,098,587.45", as en-US writes cents. */
const cents = (d: Decimal) => d.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** What the page should show, from the API: each asset's USD value to the cent and their sum. */
async function expectedValues(): Promise<{ byAsset: Map<string, string | undefined>; total: string }> {
  const profiles = (await trader.call("GET", "/api/v2/profiles")).body.items as { id: string }[];
  const totals = new Map<string, Decimal>();
  for (const p of profiles) {
    const items = (await trader.call("GET", `/api/v2/profiles/${p.id}/balances`)).body.items as {
      asset: string;
      available: string;
      trading: string;
    }[];
    for (const b of items) {
      totals.set(b.asset, (totals.get(b.asset) ?? new Decimal(0)).plus(b.available).plus(b.trading));
    }
  }
  const mid = async (market: string) => {
    const t = (await trader.call("GET", `/api/v2/markets/${market}/ticker`)).body;
    const [bid, ask, last] = [t.best_bid.price, t.best_ask.price, t.last_execution.price].map((p: string) =>
      p === "0" ? undefined : new Decimal(p),
    );
    // The mid of a two-sided book, else the last trade, else the side there is.
    return bid && ask ? bid.plus(ask).div(2) : (last ?? bid ?? ask);
  };
  const btcUsd = await mid("BTCUSD");
  const byAsset = new Map<string, string | undefined>();
  let total = new Decimal(0);
  for (const [asset, amount] of totals) {
    let value: Decimal | undefined;
    if (asset === "USD") value = amount;
    else if (asset === "EUR" || asset === "SGD") {
      const local = await mid(`BTC${asset}`);
      value = btcUsd && local && amount.times(btcUsd).div(local);
    } else {
      const price = await mid(`${asset}USD`);
      value = price && amount.times(price);
    }
    const rounded = value?.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    if (rounded) total = total.plus(rounded);
    byAsset.set(asset, rounded && cents(rounded));
  }
  return { byAsset, total: cents(total) };
}

async function balancesPage(email: string, width: number): Promise<Page> {
  const page = await keptPage(browser, { width, height: 900 });
  await signInAs(page, app.url, email);
  await openFromNav(page, "Balances");
  await page.waitForURL(/\/balances$/);
  await expect.poll(() => page.getByTestId("usd-total").textContent(), { timeout: 15_000 }).not.toContain("…");
  return page;
}

/** The USD value the page shows for `asset`, in whichever layout the width gives. */
const shownValue = (page: Page, asset: string) =>
  page.locator(`[data-asset="${asset}"] [data-testid="usd-value"]:visible`).innerText();

describe("the Balances page", () => {
  it("values the desk's balances in USD as the API's balances and mid prices say", async () => {
    const expected = await expectedValues();
    // What this test's quotes price, and what it leaves without a price.
    expect(expected.byAsset.get("BTC")).toBeDefined();
    expect(expected.byAsset.get("EUR")).toBeDefined();
    expect(expected.byAsset.get("LINK")).toBeUndefined();
    const page = await balancesPage("viewer@example.com", WIDTHS.desk);
    expect(await page.getByTestId("usd-total").innerText()).toBe(`Total value ${expected.total} USD`);
    for (const [asset, value] of expected.byAsset) {
      expect(await shownValue(page, asset), asset).toBe(value ?? "no price");
    }
    expect(await page.getByText(/No price now for [A-Z, ]*LINK/).count()).toBe(1);
    await page.close();
  });

  it("shows each profile's available and trading amounts to the asset's precision", async () => {
    const page = await balancesPage("viewer@example.com", WIDTHS.laptop);
    const treasury = page.getByRole("table", { name: "Balances of Treasury" });
    const usd = await treasury.locator('[data-asset="USD"] td').allInnerTexts();
    expect(usd).toEqual(["24,999,000.00", "1,000.00"]);
    const btc = await treasury.locator('[data-asset="BTC"] td').allInnerTexts();
    expect(btc).toEqual(["350", "0"]);
    // Fiat first, in the service's order.
    expect((await treasury.locator("tbody th").allInnerTexts()).slice(0, 3)).toEqual(["USD", "EUR", "SGD"]);
    await page.close();
  });

  it("aligns each column's amounts on the decimal point: 24,999,000.00 over 350 over 0", async () => {
    const page = await balancesPage("viewer@example.com", WIDTHS.laptop);
    const treasury = page.getByRole("table", { name: "Balances of Treasury" });
    // Where each amount's whole part ends (its decimal point, or where one would be), per column.
    const points = await treasury.locator("tbody tr").evaluateAll((rows) =>
      [0, 1].map((col) =>
        rows.map((row) => {
          const cell = row.querySelectorAll("td")[col]!;
          const range = document.createRange();
          const whole = cell.querySelector("span")!.firstChild!;
          range.selectNodeContents(whole);
          return Math.round(range.getBoundingClientRect().right);
        }),
      ),
    );
    for (const column of points) {
      expect(column.length).toBeGreaterThan(5);
      expect(new Set(column).size, `decimal points at x = ${column.join(", ")}`).toBe(1);
    }
    await page.close();
  });

  // The page's layout is the same for each role: only the header differs, and the admin's has
  // the most links.
  describe("for the admin role", () => {
    const role = "admin";
    it.each(LAYOUT_WIDTHS)("fits at %s width (%i px), accessible", async (name, width) => {
      const page = await balancesPage(`${role}@example.com`, width);
      const expected = await expectedValues();
      expect(await page.getByTestId("usd-total").innerText()).toBe(`Total value ${expected.total} USD`);
      expect(await shownValue(page, "USD")).toBe(expected.byAsset.get("USD"));
      await expectNoSidewaysScroll(page, `/balances as ${role} at ${width}px`);
      // No amount spills out of its cell: the big USD balance fits, wrapping if it must.
      const spills = await page.evaluate(
        () => [...document.querySelectorAll("td, dd")].filter((c) => c.scrollWidth > c.clientWidth + 1).length,
      );
      expect(spills, "cells whose content overflows").toBe(0);
      await expectAccessible(page, `/balances as ${role} at ${width}px`);
      await screenshot(page, `balances-${role}-${name}`);
      await page.close();
    });
  });
});

describe("the note in place of a form a role may not use", () => {
  it("is on the transfers page for a role without transfers:create, linking to Balances", async () => {
    const page = await browser.newPage();
    await signInAs(page, app.url, "trader@example.com");
    await page.getByRole("link", { name: "Transfers" }).click();
    await page.waitForURL(/\/transfers$/);
    const note = page.getByTestId("read-only-note");
    expect(await note.innerText()).toContain("You can read transfers; creating them needs the ops role.");
    await note.getByRole("link", { name: "See the balances" }).click();
    await page.waitForURL(/\/balances$/);
    await page.close();
  });

  it("is not there for a role that has the form", async () => {
    const page = await browser.newPage();
    await signInAs(page, app.url, "ops@example.com");
    await page.getByRole("link", { name: "Transfers" }).click();
    await page.waitForURL(/\/transfers$/);
    await expect.poll(() => page.getByRole("form", { name: "Internal transfer" }).count()).toBe(1);
    expect(await page.getByTestId("read-only-note").count()).toBe(0);
    await page.close();
  });
});
