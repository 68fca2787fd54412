import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParentOrder } from "@/lib/shared/parent-order";
import { addDecimal, amountIfSet } from "@/lib/spec/decimal";
import { hasFill } from "@/lib/shared/order-rows";
import { signIn } from "../support/app-server";
import {
  armed,
  expectAccessible,
  expectNoSidewaysScroll,
  keptPage,
  launchBrowser,
  poll,
  screenshot,
  settled,
  signInAs,
  WIDTHS,
} from "../support/browser";
import { eventually } from "../support/dashboard";
import { newRef, TREASURY } from "../support/requests";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * TWAP parent orders in the browser (issue 29): a parent placed from the ticket (past the
 * price guard, its market typed) shows in the orders table with its children grouped beneath it as they
 * are sent; its page draws the market's price with each child's fill and the cap, and pauses,
 * resumes and cancels it. The app's clock is moved to each slice's time, never waited for. The
 * ticket's rules for a parent, its review and a held parent are the components project's
 * (test/components/work-over-time.test.tsx).
 */

let app: SharedApp;
let browser: Browser;
let trader: Awaited<ReturnType<typeof signIn>>;
/** A cap a buy's children fill under: the market's best ask now, and some room above it (within the 5% guard). */
let cap: string;

beforeAll(async () => {
  // The market maker quotes (and its flow trader trades), so children fill and the chart has trades.
  [app, browser] = await Promise.all([resetApp({ SANDBOX_MARKET_MAKER: "on" }), launchBrowser()]);
  trader = await signIn(app, "trader@example.com");
  const ask = async () =>
    ((await trader.call("GET", "/api/v2/markets/BTCUSD/ticker")).body as { best_ask?: { price?: string } })?.best_ask
      ?.price ?? "";
  // The service says "0" for a side with no order: the market maker's first quotes are awaited.
  const quoted = await eventually(async () => amountIfSet(await ask()), 15_000, "the market maker's ask");
  cap = addDecimal(quoted, "500");
});
afterAll(async () => {
  await browser?.close();
});

/** What the server's clock says now. */
const serverNow = async () => Date.parse((await app.control.state()).now);

/** Moves the app's clock to `iso` (if it is still ahead) and a little past it. */
async function moveTo(iso: string, past = 1_000) {
  await app.control.advance(Math.max(0, Date.parse(iso) - (await serverNow())) + past);
}

const readParent = async (id: string): Promise<ParentOrder> =>
  (await trader.call("GET", `/api/parent-orders/${id}`)).body.parent_order as ParentOrder;

async function traderPage(width: number = WIDTHS.desk): Promise<{ page: Page; ticket: Locator }> {
  const page = await keptPage(browser, { width, height: 1200 });
  await signInAs(page, app.url, "trader@example.com");
  const ticket = page.getByRole("form", { name: "Order ticket" });
  await poll(() => ticket.getByLabel("Profile", { exact: true }).locator("option").count()).toBeGreaterThan(1);
  return { page, ticket };
}

describe("the ticket's Work over time", () => {
  it("places a parent order (201), then shows it in the orders table with its children beneath it as they are sent", async () => {
    const { page, ticket } = await traderPage();
    const label = (name: string) => ticket.getByLabel(name, { exact: true });
    await label("Profile").selectOption({ label: "Treasury" });
    await ticket.getByLabel("Work over time (TWAP)").check();
    await label("Base amount (BTC)").fill("0.006");
    // A cap past the desk's 5% price guard: the market's name is typed before it goes (428, then sent again).
    const farCap = addDecimal(cap, "5000");
    await label("Cap: limit price (USD)").fill(farCap);
    await label("Duration").fill("1");
    await label("Slices").fill("6");
    await ticket.getByRole("button", { name: "Review order" }).click();
    await (await armed(ticket.getByRole("button", { name: "Confirm and send" }))).click();
    const guard = ticket.getByTestId("price-guard");
    await guard.waitFor();
    await guard.getByRole("textbox").fill("BTC/USD");
    await (await armed(ticket.getByRole("button", { name: "Send past the guard" }))).click();
    const result = ticket.getByTestId("parent-result");
    await result.waitFor();
    const href = (await result.getByTestId("parent-link").getAttribute("href"))!;
    const id = href.split("/").pop()!;
    const parent = await readParent(id);
    expect(parent).toMatchObject({ status: "WORKING", slices: 6, base_amount: "0.006", limit_price: farCap });

    const table = page.getByRole("table", { name: "Orders" });
    const row = table.locator(`tr[data-row="parent:${id}"]`);
    await poll(() => row.count()).toBe(1);
    await row.getByRole("button", { name: `Show the slices of parent order ${id.slice(0, 8)}` }).click();
    const children = page.locator(`tr[id^="parent-child-${id}-"]:not([hidden]) [data-testid=parent-child]`);

    // Slice by slice: the clock moved to each one's time, its child appears beneath the parent.
    for (const child of parent.children) {
      await moveTo(child.scheduled_at, 500);
      await poll(() => children.count(), { message: `slice ${child.n} beneath its parent` }).toBe(child.n);
    }
    // Settled (each child is read back half a second after it is sent) and complete.
    await poll(async () => {
      await app.control.advance(1_000);
      return (await readParent(id)).status;
    }).toBe("COMPLETED");
    const done = await readParent(id);
    await poll(() => row.textContent()).toMatch(/COMPLETED/);
    await poll(() => row.textContent()).toContain("6 of 6 slices sent");
    // Every child is beneath its parent, none among the other rows of the table.
    const rowKeys = await table
      .locator("tr[data-row]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-row")));
    for (const c of done.children) {
      expect(c.sent_at, `slice ${c.n} was sent`).toBeTruthy();
      expect(rowKeys).not.toContain(c.order_id);
      expect(await children.filter({ has: page.locator(`code:text-is("${c.ref_id}")`) }).count()).toBe(1);
    }
    expect(await row.locator("td[data-label=Filled]").textContent()).toContain(done.filled_base.replace(/0+$/, ""));

    await screenshot(page, "orders-table-parent-with-children");
    // Its page, from its row: the chart with a marker for each child that filled, and the cap.
    await row.getByRole("link", { name: `Open parent order ${id.slice(0, 8)}` }).click();
    await page.waitForURL(`**/parent-orders/${id}`);
    const chart = page.getByTestId("parent-chart");
    const filled = done.children.filter((c) => hasFill(c.amount_filled)).map((c) => c.n);
    expect(filled.length, "the market maker's ask filled the children").toBeGreaterThan(0);
    await poll(() => chart.getAttribute("data-markers")).toBe(filled.join(","));
    expect(await chart.getAttribute("data-cap")).toBe(farCap);
    await settled(page);
    await screenshot(page, "parent-order-page-1440");
    await page.close();
  });
});

describe("a parent order's page", () => {
  /** A parent placed over HTTP by the trader: 0.004 BTC over 2 minutes in 4 slices, 30 s apart. */
  async function placed(): Promise<ParentOrder> {
    const res = await trader.call("POST", "/api/parent-orders", {
      ref_id: newRef("twap-page"),
      profile_id: TREASURY,
      market: "BTCUSD",
      side: "BUY",
      base_amount: "0.004",
      strategy: "TWAP",
      duration_seconds: 120,
      slices: 4,
      limit_price: cap,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.parent_order as ParentOrder;
  }

  it("draws the price with each child's fill and the cap, and pauses, resumes and cancels it", async () => {
    const parent = await placed();
    const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
    await signInAs(page, app.url, "trader@example.com", undefined, `/parent-orders/${parent.id}`);
    const view = page.getByTestId("parent-order");
    const chart = page.getByTestId("parent-chart");
    await poll(() => chart.getAttribute("data-cap")).toBe(cap);
    // The first slice goes at once.
    await poll(() => chart.getAttribute("data-markers"), { message: "the first child's fill marked" }).toBe("1");
    await expectAccessible(page, "a parent order's page");

    await page.getByRole("button", { name: "Pause" }).click();
    await poll(() => view.getAttribute("data-status")).toBe("PAUSED");
    // Paused: the second slice's time comes and goes, and nothing is sent.
    await moveTo(parent.children[1]!.scheduled_at, 5_000);
    await app.control.advance(10_000);
    expect((await readParent(parent.id)).children.filter((c) => c.sent_at).length).toBe(1);
    await expect.poll(() => page.getByTestId("parent-slices").textContent()).toBe("1 of 4 slices sent");

    await page.getByRole("button", { name: "Resume" }).click();
    await poll(() => view.getAttribute("data-status")).toBe("WORKING");
    // The rest of the schedule moved on by the pause: the next slice is due at its new time.
    const resumed = await readParent(parent.id);
    await moveTo(resumed.children[1]!.scheduled_at, 500);
    await poll(() => page.getByTestId("parent-slices").textContent()).toBe("2 of 4 slices sent");
    await poll(() => chart.getAttribute("data-markers")).toBe("1,2");

    await page.getByRole("button", { name: `Cancel parent order ${parent.id.slice(0, 8)}` }).click();
    await page
      .getByRole("group", { name: `Confirm cancel of parent order ${parent.id.slice(0, 8)}` })
      .getByRole("button", { name: "Cancel parent order" })
      .click();
    await poll(() => view.getAttribute("data-status")).toBe("CANCELLED");
    expect(await page.getByTestId("parent-actions").count()).toBe(0);
    await app.control.advance(60_000);
    const cancelled = await readParent(parent.id);
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.children.filter((c) => c.sent_at).length).toBe(2);
    await page.close();
  });

  it("fits a phone in both themes, and only the requester or an admin may act on it", async () => {
    const parent = await placed();
    const page = await keptPage(browser, { width: WIDTHS.phone, height: 844 });
    await signInAs(page, app.url, "trader@example.com", undefined, `/parent-orders/${parent.id}`);
    await poll(() => page.getByTestId("parent-chart").getAttribute("data-markers")).toBe("1");
    await settled(page);
    await expectNoSidewaysScroll(page, "a parent order's page at 390 px");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoSidewaysScroll(page, "a parent order's page at 390 px, dark");
    await expectAccessible(page, "a parent order's page at 390 px, dark");
    await screenshot(page, "parent-order-page-390-dark");
    await page.close();

    // Someone else reads it, with no button to act on it.
    const viewer = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
    await signInAs(viewer, app.url, "viewer@example.com", undefined, `/parent-orders/${parent.id}`);
    await viewer.getByTestId("parent-chart").waitFor({ state: "attached" });
    expect(await viewer.getByTestId("parent-sentence").textContent()).toMatch(
      /^Buy 0\.004 BTC over 2 minutes in 4 slices/,
    );
    // The profile by its nickname, on a line of its own once the names have come.
    await poll(() => viewer.getByTestId("parent-profile").textContent()).toBe("Treasury");
    expect(await viewer.getByRole("button", { name: "Pause" }).count()).toBe(0);
    await viewer.close();
    await trader.call("POST", `/api/parent-orders/${parent.id}/cancel`);
  });
});
