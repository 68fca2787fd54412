import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import { keptPage, launchBrowser, poll, settled, signInAs, WIDTHS } from "../support/browser";
import { newRef, smallOrder, TRADING } from "../support/dashboard";
import { seedDesk } from "../support/desk-seed";
import { resetApp } from "../support/shared-app";

/**
 * Issue 20, "tables that fit": the hint that a table scrolls sideways follows whether it does,
 * and opening an order's cancel confirmation does not widen its column. (That each table fits at
 * a laptop's 1280 × 800 for every role that sees it, its Filled column whole, is checked in the
 * visit of each page: visits.test.ts.)
 *
 * Issue 26, "screens that tell the truth", with a desk's worth of records (seedDesk: 60-character
 * ref_ids, six-key metadata, transfers approved, rejected and waiting): a transfer's legs stay
 * folded until its ▸ opens them, by mouse or keyboard. (That every role sees each row's identity,
 * amount, status and action with nothing scrolled off or under a sticky column is checked in the
 * visit of each page, with the same records: visits.test.ts.)
 */

let app: { url: string };
let browser: Browser;

beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts); the market maker quotes, so the desk's
  // market orders fill (its bids, far below the market, rest).
  [app, browser] = await Promise.all([resetApp({ SANDBOX_MARKET_MAKER: "on" }), launchBrowser()]);
  await seedDesk(app);
  const trader = await signIn(app, "trader@example.com");
  // Long amounts, newest so on the first page, so the widest cells are there to be measured.
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
  const page = await keptPage(browser, LAPTOP);
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

/** The page's first rows that are the service's transfers (not held ones), and the ▸ of each. */
function transferRows(page: Page) {
  const rows = page
    .locator("table", { has: page.locator('caption:text-is("Transfers, one row per transfer with its legs below")') })
    .locator("tr[data-row]:not([data-row^='held'])");
  const disclosure = (i: number) => rows.nth(i).getByRole("button", { name: /^(Show|Hide) the .* of transfer / });
  return { rows, disclosure };
}

/** The leg rows a disclosure opens (its aria-controls), and how many of them show. */
async function legsOf(page: Page, button: ReturnType<ReturnType<typeof transferRows>["disclosure"]>) {
  const ids = (await button.getAttribute("aria-controls"))!.split(" ");
  const legs = page.locator(ids.map((id) => `[id="${id}"]`).join(", "));
  return { ids, legs, shown: () => legs.filter({ visible: true }).count() };
}

describe("a transfer's legs at 1280 × 800", () => {
  it("are folded by default: one row a transfer, every ▸ closed, no leg row shown", async () => {
    const page = await pageAs("ops@example.com", "/transfers");
    const { rows, disclosure } = transferRows(page);
    await poll(() => rows.count()).toBeGreaterThanOrEqual(20);
    const count = await rows.count();
    // Every transfer has its ▸, closed; the legs are in the table, hidden.
    expect(await page.getByRole("button", { name: /^Show the 2 legs of transfer / }).count()).toBe(count);
    expect(await page.getByRole("button", { name: /^Hide the / }).count()).toBe(0);
    expect(await page.locator('tr[id^="leg-"]').count()).toBe(2 * count);
    expect(await page.locator('tr[id^="leg-"]').filter({ visible: true }).count()).toBe(0);
    expect(await disclosure(0).getAttribute("aria-expanded")).toBe("false");
    await page.close();
  });

  it("opens a transfer's two legs with its ▸, by mouse and by keyboard, and folds them again", async () => {
    const page = await pageAs("ops@example.com", "/transfers");
    const { rows, disclosure } = transferRows(page);
    await poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await settled(page);
    const allLegs = page.locator('tr[id^="leg-"]').filter({ visible: true });

    // A click opens the first transfer's legs, and only its.
    const first = await legsOf(page, disclosure(0));
    await disclosure(0).click();
    await poll(() => disclosure(0).getAttribute("aria-expanded")).toBe("true");
    await poll(first.shown).toBe(2);
    expect(await allLegs.count()).toBe(2);
    expect(await first.legs.allInnerTexts()).toEqual([
      expect.stringContaining("Out (DEBIT)"),
      expect.stringContaining("In (CREDIT)"),
    ]);
    await disclosure(0).click();
    await poll(first.shown).toBe(0);
    expect(await disclosure(0).getAttribute("aria-expanded")).toBe("false");

    // Tab goes from one ▸ to the next; Enter opens, Space folds.
    await disclosure(0).focus();
    await page.keyboard.press("Tab");
    await poll(() => disclosure(1).evaluate((b) => b === document.activeElement)).toBe(true);
    const second = await legsOf(page, disclosure(1));
    await page.keyboard.press("Enter");
    await poll(() => disclosure(1).getAttribute("aria-expanded")).toBe("true");
    await poll(second.shown).toBe(2);
    expect(await allLegs.count()).toBe(2);
    await page.keyboard.press("Space");
    await poll(() => disclosure(1).getAttribute("aria-expanded")).toBe("false");
    await poll(second.shown).toBe(0);
    await page.close();
  });
});
