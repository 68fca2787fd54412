import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import { launchBrowser, signInAs, WIDTHS } from "../support/browser";
import { newRef, smallOrder, TRADING } from "../support/dashboard";
import { resetApp } from "../support/shared-app";

/**
 * Issue 20, "tables that fit": the hint that a table scrolls sideways follows whether it does,
 * and opening an order's cancel confirmation does not widen its column. (That each table fits at
 * a laptop's 1280 × 800 for every role that sees it, its Filled column whole, is checked in the
 * visit of each page: visits.test.ts.)
 */

let app: { url: string };
let browser: Browser;

beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts), market maker off: the orders rest.
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
  const trader = await signIn(app, "trader@example.com");
  // Long amounts, so the widest cells are there to be measured, and orders open to cancel.
  for (const base_amount of ["0.01", "1.23456789"]) {
    const res = await trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      smallOrder(newRef("fit"), { base_amount }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(async () => {
  await browser?.close();
});

const LAPTOP = { width: WIDTHS.laptop, height: 800 };

async function pageAs(email: string, path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: LAPTOP });
  await signInAs(page, app.url, email, undefined, path);
  return page;
}

/** The scroll box of the table captioned `caption`, once it holds rows. */
async function scrollerOf(page: Page, caption: string) {
  const table = page.locator("table", { has: page.locator(`caption:text-is("${caption}")`) });
  await expect.poll(() => table.locator("tr[data-row]").count(), { timeout: 15_000 }).toBeGreaterThan(0);
  return table.locator("xpath=ancestor::div[@data-table-scroller][1]");
}

const overflow = (scroller: Awaited<ReturnType<typeof scrollerOf>>) =>
  scroller.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));

describe("at a laptop's 1280 × 800", () => {
  it("says so when a table does scroll: technical columns shown beside the order ticket", async () => {
    const page = await pageAs("trader@example.com", "/orders?tech=1");
    const scroller = await scrollerOf(page, "Orders");
    const { scrollWidth, clientWidth } = await overflow(scroller);
    // The hint follows whether the table scrolls, whichever way that went.
    await expect.poll(() => page.getByTestId("table-scroll-hint").isVisible()).toBe(scrollWidth > clientWidth);
    await page.close();
  });

  it("opening an order's cancel confirmation keeps its column's width and the table's", async () => {
    const page = await pageAs("trader@example.com", "/orders");
    const scroller = await scrollerOf(page, "Orders");
    const row = page.locator("tr[data-row]").filter({ has: page.getByRole("button", { name: /^Cancel order / }) });
    const cell = row.first().locator("td").last();
    const before = await cell.evaluate((td) => td.getBoundingClientRect().width);
    const tableBefore = await overflow(scroller);
    await row
      .first()
      .getByRole("button", { name: /^Cancel order / })
      .click();
    const confirm = page.getByRole("group", { name: /^Confirm cancel of order / });
    await expect.poll(() => confirm.getByRole("button", { name: "Keep" }).isVisible()).toBe(true);
    expect(await cell.evaluate((td) => td.getBoundingClientRect().width)).toBe(before);
    expect(await overflow(scroller)).toEqual(tableBefore);
    await confirm.getByRole("button", { name: "Keep" }).click();
    await page.close();
  });
});
