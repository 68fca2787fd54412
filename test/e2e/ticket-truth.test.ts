import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import { keptPage, launchBrowser, poll, signInAs, WIDTHS } from "../support/browser";
import { SETTLEMENT, TREASURY } from "../support/dashboard";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * The ticket says what it will send (issue 26): the order's worth is one figure, said once, in
 * the panel and then in the review, at a laptop's width and a phone's. The time in force after
 * each change of order type, and the profile a person last chose, are the components project's
 * (test/components/ticket-time-in-force.test.tsx, test/components/order-ticket.test.tsx).
 */

let app: SharedApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
});

const field = (ticket: Locator, name: string) => ticket.getByLabel(name, { exact: true });

/** The ticket with Trading chosen, once its profiles have loaded. */
async function tradingTicket(page: Page): Promise<Locator> {
  const ticket = page.getByRole("form", { name: "Order ticket" });
  await field(ticket, "Profile").locator("option").nth(1).waitFor({ state: "attached" });
  await field(ticket, "Profile").selectOption({ label: "Trading" });
  return ticket;
}

describe("the ticket's worth: one figure, said once, by the controls' rule", () => {
  beforeAll(async () => {
    // A book that holds still (the market maker is off): bid 64,000 and ask 66,000, a mid of 65,000.
    const trader = await signIn(app, "trader@example.com");
    for (const [profile, side, price] of [
      [TREASURY, "BUY", "64000.00"],
      [SETTLEMENT, "SELL", "66000.00"],
    ]) {
      const res = await trader.call("POST", `/api/v2/profiles/${profile}/orders`, {
        market: "BTCUSD",
        side,
        type: "LIMIT",
        price,
        base_amount: "0.01",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  /** Every estimate of the order's value the ticket shows: its label and figure, as read. */
  const estimates = (ticket: Locator) =>
    ticket.evaluate((form) =>
      [...(form as HTMLElement).innerText.matchAll(/(Worth about|notional)[^\d]*([\d,]+\.\d\d)/gi)].map(
        (m) => `${m[1]} ${m[2]}`,
      ),
    );

  for (const [size, width] of [
    ["laptop", WIDTHS.laptop],
    ["phone", WIDTHS.phone],
  ] as const) {
    it(`${size} (${width} px): a bid of 0.001 BTC at 60,000 below the mid is worth 65.00 USD, in the panel, then in the review alone`, async () => {
      const page = await keptPage(browser, { width, height: 844 });
      await signInAs(page, app.url, "trader@example.com");
      const ticket = await tradingTicket(page);
      await field(ticket, "Price (USD)").fill("60000");
      await field(ticket, "Base amount (BTC)").fill("0.001");
      // Valued at the mid, as the controls value it, not at its own 60.00.
      await poll(() => estimates(ticket)).toEqual(["Worth about 65.00"]);

      await ticket.getByRole("button", { name: "Review order" }).click();
      const note = ticket.getByTestId("controls-note");
      await poll(() => note.getAttribute("data-outcome")).toBe("send");
      expect(await note.innerText()).toContain("Worth about 65.00 USD.");
      expect(await estimates(ticket)).toEqual(["Worth about 65.00"]);

      // Back to the form: the panel's estimate again, once.
      await ticket.getByRole("button", { name: "Edit", exact: true }).click();
      await poll(() => estimates(ticket)).toEqual(["Worth about 65.00"]);
      await page.close();
    });
  }
});
