import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startApp, type AppServer } from "../support/app-server";
import { launchBrowser, screenshot, signInAs, WIDTHS } from "../support/browser";
import { newRef, smallOrder, smallTransfer, TRADING } from "../support/dashboard";

/**
 * Issue 20, "tables that fit": at a laptop's 1280 × 800 each table shows the record's identity,
 * amount, status and action with no sideways scroll, for every role that sees it; opening an
 * order's cancel confirmation does not widen its column.
 */

let app: AppServer;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  const trader = await signIn(app, "trader@example.com");
  // Long amounts and a fill, so the widest cells are there to be measured.
  for (const base_amount of ["0.01", "1.23456789"]) {
    const res = await trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      smallOrder(newRef("fit"), { base_amount }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const ops = await signIn(app, "ops@example.com");
  const res = await ops.call("POST", "/api/v2/transfer/internal", smallTransfer(newRef("fit"), { amount: "9876.54" }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

const LAPTOP = { width: WIDTHS.laptop, height: 800 };

async function pageAs(email: string, path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: LAPTOP });
  await signInAs(page, app.url, email, undefined, path);
  return page;
}

/** One signed-in page per role, kept for the file: each table is opened in it in turn. */
const rolePages = new Map<string, Promise<Page>>();
const pageOfRole = (role: string) => {
  if (!rolePages.has(role)) rolePages.set(role, pageAs(`${role}@example.com`, "/orders"));
  return rolePages.get(role)!;
};

/** The scroll box of the table captioned `caption`, once it holds rows. */
async function scrollerOf(page: Page, caption: string) {
  const table = page.locator("table", { has: page.locator(`caption:text-is("${caption}")`) });
  await expect.poll(() => table.locator("tr[data-row]").count(), { timeout: 15_000 }).toBeGreaterThan(0);
  return table.locator("xpath=ancestor::div[@data-table-scroller][1]");
}

const overflow = (scroller: Awaited<ReturnType<typeof scrollerOf>>) =>
  scroller.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));

const TABLES = [
  { path: "/orders", caption: "Orders", roles: ["viewer", "trader", "ops", "approver", "admin"] },
  {
    path: "/transfers",
    caption: "Transfers, one row per transfer with its legs below",
    roles: ["viewer", "trader", "ops", "approver", "admin"],
  },
  {
    path: "/activity",
    caption: "Activity: requests sent from the dashboard",
    roles: ["viewer", "trader", "ops", "approver", "admin"],
  },
  { path: "/activity?view=audit", caption: "Audit trail: every event, newest first", roles: ["admin"] },
];
const CASES = TABLES.flatMap((t) => t.roles.map((role) => ({ ...t, role })));

describe("at a laptop's 1280 × 800", () => {
  it.each(CASES)("$path fits for $role: no sideways scroll in its table", async ({ path, caption, role }) => {
    const page = await pageOfRole(role);
    await page.goto(`${app.url}${path}`);
    const scroller = await scrollerOf(page, caption);
    const { scrollWidth, clientWidth } = await overflow(scroller);
    if (scrollWidth > clientWidth) await screenshot(page, `fit-${role}-${path}`);
    expect(scrollWidth, `${path} as ${role} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
    // Nothing scrolls, so nothing says it does.
    expect(await page.getByTestId("table-scroll-hint").isVisible()).toBe(false);
  });

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

  it("the Filled column is whole: its amount and average price are not cut", async () => {
    const page = await pageAs("viewer@example.com", "/orders");
    await scrollerOf(page, "Orders");
    const cut = await page.locator('td[data-label="Filled"]').evaluateAll(
      (cells) =>
        cells.filter((td) => {
          const box = td.getBoundingClientRect();
          const frame = td.closest("[data-table-scroller]")!.getBoundingClientRect();
          return box.right > frame.right + 0.5 || td.scrollWidth > td.clientWidth;
        }).length,
    );
    expect(cut).toBe(0);
    await page.close();
  });
});
