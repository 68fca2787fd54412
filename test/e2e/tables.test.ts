import type { Browser, Locator, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import {
  downloadText,
  expectNoSidewaysScroll,
  keptPage,
  launchBrowser,
  LAYOUT_WIDTHS,
  poll,
  screenshot,
  signInAs,
  WIDTHS,
} from "../support/browser";
import { newRef, smallOrder, smallTransfer, TRADING } from "../support/dashboard";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * The desk's three tables in a browser at a desk monitor's, a laptop's and a phone's width:
 * filters that reach every page and live in the URL, a CSV of every match, the row's identity
 * and its Cancel in view, cards on a phone with no sideways scroll, activity for an auditor.
 */

let app: SharedApp;
let browser: Browser;
/** Four SELLs placed first, so newest first they sit on page 2 of 25; then 30 BUYs. */
const sells: string[] = [];
let gttOrder = "";
/**
 * The GTT order's expiry, on the service's clock: far enough ahead that the file's other tests
 * never see it expire however slow the machine, and moved past by its own test, not waited for.
 * Under the sessions' idle timeout (30 min), so the pages signed in stay signed in.
 */
const GTT_LEAD_MS = 10 * 60_000;
let gttExpiry = 0;

/** The runtime's time: the service's clock, which judges and runs a GTT expiry. */
const serverNow = async () => Date.parse((await app.control.state()).now);

beforeAll(async () => {
  // An empty database: exact counts of the orders placed here, page by page.
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
  const trader = await signIn(app, "trader@example.com");
  const place = async (body: Record<string, unknown>) => {
    const res = await trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };
  for (let i = 1; i <= 4; i++)
    sells.push(await place(smallOrder(newRef("sell"), { side: "SELL", price: "9000.00", base_amount: `0.0${i}` })));
  for (let i = 1; i <= 30; i++) await place(smallOrder(newRef("buy"), { base_amount: `0.0${i}` }));
  // Open while the tests below run, until the expiry's test moves the clock past it and the
  // service cancels it.
  gttExpiry = (await serverNow()) + GTT_LEAD_MS;
  gttOrder = await place(smallOrder(newRef("gtt"), { time_in_force: "GTT", expiration_date: String(gttExpiry) }));
  const ops = await signIn(app, "ops@example.com");
  for (const amount of ["10.00", "20.00"]) {
    const res = await ops.call("POST", "/api/v2/transfer/internal", smallTransfer(newRef("t"), { amount }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(async () => {
  await browser?.close();
});

async function pageAs(email: string, width: number, path = "/orders"): Promise<Page> {
  const page = await keptPage(browser, { width, height: 900 });
  await signInAs(page, app.url, email, undefined, path);
  return page;
}

/** The records' rows of the table captioned `caption` (their details rows aside). */
const rowsOf = (page: Page, caption: string): Locator =>
  page.locator("table", { has: page.locator(`caption:text-is("${caption}")`) }).locator("tr[data-row]");

/** The rows once loading is over and their number settled at `n`. */
async function expectRows(rows: Locator, n: number) {
  await poll(() => rows.count(), { timeout: 10_000 }).toBe(n);
}

async function downloadLines(page: Page): Promise<string[]> {
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /Export CSV/ }).click();
  const text = await downloadText(await download);
  return text.split("\r\n").filter(Boolean);
}

/**
 * True when the element is wholly inside the viewport's width and its table's scroll box:
 * seen without scrolling sideways, and not clipped by the box.
 */
async function inViewWidth(page: Page, element: Locator): Promise<boolean> {
  const width = page.viewportSize()!.width;
  return element.evaluate((el, width) => {
    const box = el.getBoundingClientRect();
    const frame = el.closest(".overflow-x-auto")?.getBoundingClientRect() ?? { left: 0, right: width };
    return box.width > 0 && box.left >= Math.max(0, frame.left) && box.right <= Math.min(width, frame.right);
  }, width);
}

describe.each(LAYOUT_WIDTHS)("at the %s's width (%i px)", (name, width) => {
  it("SELL finds the SELL orders of page 2; the filter is in the URL and survives a reload; CSV holds every match", async () => {
    const page = await pageAs("trader@example.com", width);
    const orders = rowsOf(page, "Orders");
    await expectRows(orders, 25);
    const filters = page.getByRole("toolbar", { name: "Filter orders" });
    await filters.getByLabel("Side", { exact: true }).selectOption("SELL");
    await expectRows(orders, 4);
    for (const id of sells) expect(await orders.filter({ has: page.locator(`[title="${id}"]`) }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Orders pages" }).textContent()).toContain(
      "4 orders matched of 35 read",
    );
    expect(new URL(page.url()).searchParams.get("side")).toBe("SELL");

    await page.reload();
    await expectRows(rowsOf(page, "Orders"), 4);
    expect(await filters.getByLabel("Side", { exact: true }).inputValue()).toBe("SELL");

    const lines = await downloadLines(page);
    expect(lines).toHaveLength(1 + 4);
    expect(lines.slice(1).every((l) => l.includes(",SELL,"))).toBe(true);
    await expectNoSidewaysScroll(page, `the orders page at ${width} px`);
    await screenshot(page, `orders-sell-${width}`);

    await filters.getByRole("button", { name: "Clear filters" }).click();
    await expectRows(rowsOf(page, "Orders"), 25);
    expect(new URL(page.url()).search).toBe("");
    await page.close();
  });

  it("keeps each order's identity and its Cancel in view without scrolling sideways", async () => {
    const page = await pageAs("trader@example.com", width);
    await expectRows(rowsOf(page, "Orders"), 25);
    const first = rowsOf(page, "Orders")
      .filter({ has: page.getByRole("button", { name: /^Cancel order / }) })
      .first();
    const cancel = first.getByRole("button", { name: /^Cancel order / });
    const identity = first.locator("time").first();
    // Down to the row, never sideways: the table's own scroll box stays where it loaded.
    await first.evaluate((row) => window.scrollBy(0, row.getBoundingClientRect().top - 200));
    expect(await first.evaluate((row) => row.closest(".overflow-x-auto")?.scrollLeft ?? 0)).toBe(0);
    expect(await inViewWidth(page, cancel), "Cancel in view").toBe(true);
    expect(await inViewWidth(page, identity), "the order's time in view").toBe(true);
    expect(await first.textContent()).toMatch(/Trading · ETH\/USD · (BUY|SELL)/);
    await expectNoSidewaysScroll(page, `the orders page at ${width} px`);
    if (name === "phone") {
      // A card: label and value pairs stacked, the whole card inside the screen.
      expect(await inViewWidth(page, first)).toBe(true);
      expect(await first.locator('td[data-label="Amount"]').evaluate((td) => getComputedStyle(td).display)).toBe(
        "flex",
      );
    }
    // Its details open under it, and only then is its execution quality read: one order's, once.
    const qualityReads: string[] = [];
    page.on("request", (r) => {
      if (/\/api\/orders\/[^/]+\/quality/.test(r.url())) qualityReads.push(r.url());
    });
    expect(qualityReads).toEqual([]);
    await first.getByRole("button", { name: /Show the details of order/ }).click();
    await poll(() => page.locator('tr[id^="order-details-"]:visible').count()).toBe(1);
    const details = page.locator('tr[id^="order-details-"]:visible');
    // Sent through the dashboard: the ETH/USD mid it arrived at; resting unfilled, so no slippage yet.
    const arrival = details.getByTestId("quality-arrival-mid");
    await poll(() => arrival.getAttribute("data-state")).toBe("success");
    expect(await arrival.textContent()).toMatch(/^\d[\d,]*\.\d{2,}$/);
    expect(await details.getByTestId("quality-slippage").textContent()).toBe("—");
    expect(qualityReads).toHaveLength(1);
    await screenshot(page, `orders-${width}`);
    await page.close();
  });

  it("transfers and activity: no sideways scroll, filters in the URL", async () => {
    const page = await pageAs("ops@example.com", width, "/transfers?asset=USD");
    const transfers = rowsOf(page, "Transfers, one row per transfer with its legs below");
    await poll(() => transfers.count(), { timeout: 10_000 }).toBeGreaterThan(1);
    expect(
      await page.getByRole("toolbar", { name: "Filter transfers" }).getByLabel("Asset", { exact: true }).inputValue(),
    ).toBe("USD");
    await expectNoSidewaysScroll(page, `the transfers page at ${width} px`);
    await screenshot(page, `transfers-${width}`);

    await page.goto(`${app.url}/activity`);
    await poll(() => rowsOf(page, "Activity: requests sent from the dashboard").count()).toBeGreaterThan(1);
    await expectNoSidewaysScroll(page, `the activity page at ${width} px`);
    await screenshot(page, `activity-${width}`);
    await page.close();
  });
});

describe("cancel", () => {
  /** An open GTC BUY order's row on the orders page (never the GTT one left to expire), and its id. */
  async function openBuyRow(page: Page) {
    const rows = rowsOf(page, "Orders");
    await expectRows(rows, 25);
    const row = rows.filter({ hasText: "OPEN" }).filter({ hasText: "BUY" }).filter({ hasText: "GTC" }).first();
    const id = (await row.locator(".font-mono[title]").getAttribute("title"))!;
    return { id, row: rows.filter({ has: page.locator(`[title="${id}"]`) }) };
  }

  /** Cancel, then its confirm step; answers once the confirm step has gone (the request is on its way). */
  async function cancel(page: Page, id: string, row: Locator) {
    await row.getByRole("button", { name: /^Cancel order / }).click();
    await row.getByRole("button", { name: "Cancel order", exact: true }).click();
    await poll(() => row.getByRole("group", { name: /^Confirm cancel/ }).count()).toBe(0);
  }

  /** One notice per cancel, once the order has ended: never "will show CANCELLED shortly" beside a row that says so. */
  async function expectOneNotice(page: Page, id: string) {
    const notices = page.getByTestId("toast");
    await poll(() => notices.allTextContents()).toEqual([expect.stringContaining(`Order ${id.slice(0, 8)} cancelled`)]);
  }

  /** Holds every read of the list until `release()`: the page can learn the new status only otherwise. */
  function holdList() {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const handler = async (route: Route) => {
      await released;
      await route.continue().catch(() => undefined); // the page may be closed by then
    };
    return { handler, release };
  }
  const list = (url: URL) => url.pathname === "/api/orders";

  /** A row's Cancel buttons, its confirm step's included: none once it is cancelled. */
  const cancelButtons = (row: Locator) => row.getByRole("button").filter({ hasText: /Cancel/ });

  /** How many times the page has opened its live stream. */
  function countStreams(page: Page) {
    let opened = 0;
    page.on("request", (r) => void (new URL(r.url()).pathname === "/api/events" && opened++));
    return { opened: () => opened };
  }

  it("with the live stream down: shows Cancelling… until the list's next read has the new status, then CANCELLED", async () => {
    const page = await browser.newPage({ viewport: { width: WIDTHS.desk, height: 900 } });
    await page.route(
      (url) => url.pathname === "/api/events",
      (route) => route.abort(),
    );
    await signInAs(page, app.url, "trader@example.com");
    // The stream's chunk loads after the page's first script, so "down" may come a while after sign-in.
    await poll(() => page.getByTestId("live-status").getAttribute("data-status"), { timeout: 30_000 }).toBe("down");
    const { id, row } = await openBuyRow(page);
    // The list's reads wait until the row has been seen between the answer and the new status.
    const held = holdList();
    await page.route(list, held.handler);
    await cancel(page, id, row);
    await poll(() => row.getByRole("button", { name: "Cancelling…" }).count()).toBe(1);
    held.release();
    await page.unroute(list);
    await poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/CANCELLED/);
    expect(await cancelButtons(row).count()).toBe(0);
    await expectOneNotice(page, id);
    await page.close();
  });

  it("with the live stream up: the row shows CANCELLED as soon as the service acknowledges, no list read needed", async () => {
    const page = await browser.newPage({ viewport: { width: WIDTHS.desk, height: 900 } });
    // The page's timers run on Playwright's clock: its stream's reopen delay is moved past, not waited for.
    await page.clock.install();
    await signInAs(page, app.url, "trader@example.com");
    const streams = countStreams(page);
    const { id, row } = await openBuyRow(page);
    // The stream is up and stays on its URL (it opens again a moment after what the page shows
    // changes, and an event in that gap would be read from the held list).
    await poll(async () => {
      const before = streams.opened();
      await page.clock.runFor(1000);
      const status = await page.getByTestId("live-status").getAttribute("data-status");
      return status === "up" && streams.opened() === before;
    }).toBe(true);
    // No read of the list answers now: the new status can only come pushed.
    const held = holdList();
    await page.route(list, held.handler);
    await cancel(page, id, row);
    await poll(() => row.textContent()).toMatch(/CANCELLED/);
    expect(await cancelButtons(row).count()).toBe(0);
    await expectOneNotice(page, id);
    held.release();
    await page.close();
  });
});

describe("an expired GTT order", () => {
  it("shows EXPIRED, told apart from a cancel", async () => {
    const page = await pageAs("viewer@example.com", WIDTHS.desk);
    const row = rowsOf(page, "Orders").filter({ has: page.locator(`[title="${gttOrder}"]`) });
    // Open until the service's clock is moved past its expiry: then the service cancels it at once.
    await poll(() => row.textContent()).toMatch(/OPEN/);
    await app.control.advance(Math.max(0, gttExpiry - (await serverNow())) + 1_000);
    await poll(() => row.textContent()).toMatch(/EXPIRED/);
    expect(await row.textContent()).not.toMatch(/CANCELLED/);
    await page.close();
  });
});

describe("activity for an auditor", () => {
  it("filters by any part of the user's email and by a date range, exports what matches, hides the technical columns", async () => {
    const page = await pageAs("admin@example.com", WIDTHS.laptop, "/activity");
    const rows = rowsOf(page, "Activity: requests sent from the dashboard");
    await poll(() => rows.count()).toBe(25);
    expect(await page.getByRole("columnheader", { name: "HTTP" }).count()).toBe(0);
    expect(await rows.first().textContent()).toMatch(/Transfer|Order|Cancel/);

    const filters = page.getByRole("toolbar", { name: "Filter activity" });
    await filters.getByLabel("User").fill("OPS@");
    await poll(() => rows.count()).toBe(2);
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining("ops@example.com"),
      expect.stringContaining("ops@example.com"),
    ]);
    await poll(() => new URL(page.url()).searchParams.get("user")).toBe("OPS@");
    const lines = await downloadLines(page);
    expect(lines).toHaveLength(1 + 2);
    expect(lines.slice(1).every((l) => l.includes("ops@example.com"))).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await filters.getByLabel("From (UTC)").fill(tomorrow);
    await poll(() => page.getByText("Nothing matches these filters.").count()).toBe(1);
    await filters.getByLabel("From (UTC)").fill(today);
    await filters.getByLabel("To (UTC)").fill(today);
    await poll(() => rows.count()).toBe(2);
    await page.reload();
    await poll(() => rows.count()).toBe(2);
    expect(await filters.getByLabel("User").inputValue()).toBe("OPS@");

    await page.getByLabel(/Show technical columns/).check();
    await poll(() => page.getByRole("columnheader", { name: "HTTP" }).count()).toBe(1);
    await page.close();
  });

  it("marks each table's primary filter for the '/' shortcut", async () => {
    // Signed in on /orders, the first of them.
    const page = await pageAs("admin@example.com", WIDTHS.desk);
    for (const path of ["/orders", "/transfers", "/activity"]) {
      if (new URL(page.url()).pathname !== path) await page.goto(`${app.url}${path}`);
      await poll(() => page.locator("[data-table-filter]").count(), { message: path }).toBe(1);
    }
    await page.close();
  });
});
