import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PASSWORD } from "../support/app-server";
import { armed, downloadText, keptPage, launchBrowser, signInAs } from "../support/browser";
import { resetApp } from "../support/shared-app";

/**
 * Placing orders of every type, and the keyboard across a real page. The ticket's rules, each
 * refused on its field with nothing sent, are the components project's
 * (test/components/order-ticket.test.tsx).
 */

let app: { url: string };
let browser: Browser;
beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts): the market maker quotes there.
  app = await resetApp({ SANDBOX_MARKET_MAKER: "on" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function traderPage(): Promise<{ page: Page; ticket: Locator }> {
  const page = await keptPage(browser, { width: 1600, height: 1200 });
  await signInAs(page, app.url, "trader@example.com");
  const ticket = page.getByRole("form", { name: "Order ticket" });
  await expect.poll(() => ticket.getByLabel("Profile", { exact: true }).locator("option").count()).toBeGreaterThan(1);
  return { page, ticket };
}

/** Fills the ticket, reviews, confirms; returns the order id from the result. */
async function placeOrder(ticket: Locator, fields: Record<string, string>, type: string, side: "Buy" | "Sell") {
  await ticket.getByLabel("Order type", { exact: true }).selectOption(type);
  await ticket.getByText(side, { exact: true }).click();
  for (const [name, value] of Object.entries(fields)) await ticket.getByLabel(name, { exact: true }).fill(value);
  await ticket.getByRole("button", { name: "Review order" }).click();
  await ticket.getByRole("button", { name: "Confirm and send" }).click();
  const result = ticket.getByTestId("order-result");
  await result.waitFor();
  const id = (await result.locator("dd").nth(2).getAttribute("title"))!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

describe("placing orders", () => {
  it("places every order type and sees each in the table; cancels one; exports the CSV", async () => {
    const { page, ticket } = await traderPage();
    await ticket.getByLabel("Profile", { exact: true }).selectOption({ label: "Trading" });
    // Wait for the market maker's quotes so market orders have something to fill against.
    await expect
      .poll(async () => (await ticket.locator("dd").nth(1).textContent()) ?? "", { timeout: 15_000 })
      .toMatch(/\d/);

    const placed = {
      LIMIT: await placeOrder(ticket, { "Price (USD)": "30000.00", "Base amount (BTC)": "0.01" }, "LIMIT", "Buy"),
      POST_ONLY_LIMIT: await placeOrder(
        ticket,
        { "Price (USD)": "90000.00", "Base amount (BTC)": "0.01" },
        "POST_ONLY_LIMIT",
        "Sell",
      ),
      MARKET_BUY: await placeOrder(ticket, { "Quote amount (USD)": "100.00" }, "MARKET", "Buy"),
      MARKET_SELL: await placeOrder(ticket, { "Base amount (BTC)": "0.001" }, "MARKET", "Sell"),
      STOP_MARKET: await placeOrder(
        ticket,
        { "Stop price (USD)": "30000.00", "Base amount (BTC)": "0.01" },
        "STOP_MARKET",
        "Sell",
      ),
      STOP_LIMIT: await placeOrder(
        ticket,
        { "Stop price (USD)": "30000.00", "Price (USD)": "29000.00", "Base amount (BTC)": "0.01" },
        "STOP_LIMIT",
        "Sell",
      ),
    };
    const table = page.getByRole("table", { name: "Orders" });
    const row = (id: string) => table.locator("tr", { has: page.locator(`[title="${id}"]`) });
    const expected: Record<keyof typeof placed, RegExp> = {
      LIMIT: /OPEN/,
      POST_ONLY_LIMIT: /OPEN/,
      MARKET_BUY: /FILLED/,
      MARKET_SELL: /FILLED/,
      STOP_MARKET: /OPEN/,
      STOP_LIMIT: /OPEN/,
    };
    for (const [kind, id] of Object.entries(placed) as [keyof typeof placed, string][]) {
      await expect.poll(() => row(id).textContent(), { timeout: 10_000, message: kind }).toMatch(expected[kind]);
    }
    // Who submitted it is in the row's details (issue 20: the table keeps to what fits at 1280 px).
    await row(placed.LIMIT)
      .getByRole("button", { name: /Show the details of order/ })
      .click();
    await expect
      .poll(() => page.locator(`#order-details-${placed.LIMIT}`).textContent())
      .toContain("trader@example.com");

    // Cancel the resting limit order, with its confirm step.
    const short = `BUY BTC/USD ${placed.LIMIT.slice(0, 8)}`;
    await table.getByRole("button", { name: `Cancel order ${short}` }).click();
    await table
      .getByRole("group", { name: `Confirm cancel of order ${short}` })
      .getByRole("button", { name: "Cancel order" })
      .click();
    await expect.poll(() => row(placed.LIMIT).textContent(), { timeout: 10_000 }).toMatch(/CANCELLED/);

    // The CSV holds the orders with the service's own amounts.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: /Export CSV/ }).click();
    const csv = await downloadText(await download);
    const lines = csv.trim().split(/\r\n/);
    expect(lines[0]).toMatch(/id/i);
    const limitLine = lines.find((l) => l.includes(placed.LIMIT));
    expect(limitLine).toMatch(/BTCUSD/);
    expect(limitLine).toMatch(/CANCELLED/);
    expect(limitLine).toContain("30000.00");
    expect(limitLine).toContain("trader@example.com");
    for (const id of Object.values(placed)) expect(csv).toContain(id);
    await page.close();
  });
});

describe("keyboard only", () => {
  it("signs in, fills the ticket, reviews and sends an order without the mouse", async () => {
    const page = await keptPage(browser, { width: 1600, height: 1200 });
    const key = page.keyboard;
    await page.goto(`${app.url}/signin`);
    await key.press("Tab");
    await key.type("trader@example.com");
    await key.press("Tab");
    await key.type(TEST_PASSWORD);
    await key.press("Enter");
    await page.waitForURL(/\/orders$/);
    const ticket = page.getByRole("form", { name: "Order ticket" });
    await expect
      .poll(() => ticket.getByLabel("Profile", { exact: true }).locator("option").count(), { timeout: 15_000 })
      .toBeGreaterThan(1);

    /** Tabs forward until the focused element is the one named. */
    async function tabTo(name: string) {
      for (let i = 0; i < 60; i++) {
        await key.press("Tab");
        const focused = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          const id = el?.id;
          return (
            (id && document.querySelector(`label[for="${id}"]`)?.textContent) ||
            el?.getAttribute("aria-label") ||
            el?.textContent ||
            ""
          );
        });
        if (focused.trim().startsWith(name)) return;
      }
      throw new Error(`could not reach ${name} with Tab`);
    }
    await tabTo("Profile");
    await key.press("ArrowDown"); // the first profile
    await tabTo("Price (USD)");
    await key.type("30000.25");
    await tabTo("Base amount (BTC)");
    await key.type("0.02");
    await key.press("Enter"); // submits the form: the review opens
    await ticket.getByTestId("order-review").waitFor();
    expect(await ticket.getByTestId("order-review").textContent()).toContain("Buy 0.02 BTC at 30,000.25 USD");
    // The review's text has the focus, not Confirm: sending is a deliberate Tab and Enter, after a pause.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("review");
    await key.press("Tab");
    await armed(ticket.getByRole("button", { name: "Confirm and send" }));
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Confirm and send");
    await key.press("Enter");
    await ticket.getByTestId("order-result").waitFor();
    await expect.poll(() => ticket.getByTestId("order-result").textContent()).toMatch(/OPEN|SUBMITTED/);
    await page.close();
  });
});
