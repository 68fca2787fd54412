import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOAST_SHOWN_MS } from "@/lib/client/notice-log";
import { formatMoney, formatTime } from "@/lib/shared/format";
import { launchBrowser, poll, settled, signInAs } from "../support/browser";
import {
  newRef,
  resetDashboard,
  SETTLEMENT,
  smallOrder,
  TRADING,
  TREASURY,
  type Client,
  type Dashboard,
} from "../support/dashboard";

/**
 * Issue 26: a notice names its request (kind, amount, profiles, ref_id), stays in the header's
 * Notices list until read, and its toast covers no control of the header or of the page, at a
 * laptop's 1280×800 and a phone's 390×844.
 */

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let d: Dashboard;
let browser: Browser;
beforeAll(async () => {
  // An empty database: every request held and every decision is this file's.
  [d, browser] = await Promise.all([resetDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

/** A transfer of `amount` USD from Treasury to Settlement, held for an approver (over the 10,000 USD rule). */
async function heldTransfer(amount: string): Promise<{ id: string; ref: string }> {
  const ref = newRef("e2e-notice");
  const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
    from_profile_id: TREASURY,
    to_profile_id: SETTLEMENT,
    asset: "USD",
    amount,
    ref_id: ref,
    metadata: { test: ref },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return { id: res.body.approval.id, ref };
}

/** 120 BTC at 1,000 USD: worth 120,000 USD at least, over the 100,000 USD rule for orders: held for an approver. */
async function heldOrder(): Promise<{ id: string; ref: string }> {
  const ref = newRef("e2e-notice-order");
  const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, {
    ...smallOrder(ref),
    market: "BTCUSD",
    price: "1000.00",
    base_amount: "120",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return { id: res.body.approval.id, ref };
}

async function reject(id: string, reason: string) {
  const res = await d.as.approver.call("POST", `/api/approvals/${id}/reject`, { reason });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * A page of its own, signed in, its clock Playwright's (installed before the first load), once
 * it follows the person's requests: a decision from then on is news.
 */
async function openAs(email: string, path: string, viewport = LAPTOP): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.clock.install();
  await signInAs(page, d.url, email, undefined, path);
  await settled(page);
  await watching(page);
  return page;
}

const watching = (page: Page) =>
  page.locator('[data-testid="approval-notices"][data-watching="true"]').waitFor({ state: "attached" });

const noticesButton = (page: Page) => page.getByRole("button", { name: /^Notices/ });
const noticesList = (page: Page) => page.getByRole("region", { name: "Notices of this session" });

describe("a notice names its request and stays in the Notices list until read", () => {
  it("ops's rejected transfer: amount, profiles and ref_id in the notice; kept after the toast, read once opened", async () => {
    const kept = await heldTransfer("12000");
    const rejected = await heldTransfer("13000.50");
    const ops = await openAs("ops@example.com", "/transfers");
    expect(await noticesButton(ops).getAttribute("aria-label")).toBe("Notices");

    await reject(rejected.id, "Duplicate of the other request");
    const toast = ops.getByTestId("toast");
    await poll(() => toast.allTextContents()).toEqual([expect.any(String)]);
    const text = (await toast.textContent())!;
    expect(text).toContain(
      `Your transfer of ${formatMoney("13000.50", "USD")} from Treasury to Settlement was rejected by approver@example.com: Duplicate of the other request`,
    );
    expect(text).toContain(`ref_id ${rejected.ref}`);
    expect(text).not.toContain(kept.ref);
    expect(await noticesButton(ops).getAttribute("aria-label")).toBe("Notices, 1 unread");

    // The toast's time passes (the page's clock moved, not waited for): the toast goes, the notice stays unread.
    await ops.clock.fastForward(TOAST_SHOWN_MS);
    await poll(() => toast.count()).toBe(0);
    expect(await noticesButton(ops).getAttribute("aria-label")).toBe("Notices, 1 unread");

    // It survives a move to another page of the dashboard, and a reload.
    await ops.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders" }).click();
    await ops.waitForURL(/\/orders$/);
    expect(await noticesButton(ops).getAttribute("aria-label")).toBe("Notices, 1 unread");
    await ops.reload();
    await poll(() => noticesButton(ops).getAttribute("aria-label")).toBe("Notices, 1 unread");

    // A second notice: the list is newest first.
    await watching(ops);
    await reject(kept.id, "Over the desk's budget for the week");
    await poll(() => noticesButton(ops).getAttribute("aria-label")).toBe("Notices, 2 unread");

    // Opened (by keyboard), the list shows both with their time, and marks them read.
    await noticesButton(ops).focus();
    await ops.keyboard.press("Enter");
    const list = noticesList(ops);
    await list.waitFor();
    expect(await noticesButton(ops).getAttribute("aria-expanded")).toBe("true");
    const items = list.getByRole("listitem");
    await poll(() => items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toContain(`ref_id ${kept.ref}`);
    expect(await items.nth(0).textContent()).toContain(formatMoney("12000", "USD"));
    expect(await items.nth(1).textContent()).toContain(`ref_id ${rejected.ref}`);
    for (const item of await items.all()) {
      const time = item.locator("time");
      const at = (await time.getAttribute("datetime"))!;
      expect(Number.isNaN(Date.parse(at)), at).toBe(false);
      expect(await time.textContent()).toBe(formatTime(at, "UTC"));
    }
    await poll(() => noticesButton(ops).getAttribute("aria-label")).toBe("Notices");

    // Escape closes it and gives the focus back to the button.
    await ops.keyboard.press("Escape");
    await poll(() => list.count()).toBe(0);
    expect(await noticesButton(ops).getAttribute("aria-expanded")).toBe("false");
    expect(await ops.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Notices");

    // Each can be dismissed; read and dismissed stay so after a reload.
    await noticesButton(ops).click();
    await list.getByRole("button", { name: /^Dismiss notice: Your transfer of 12,000\.00 USD/ }).click();
    await poll(() => items.count()).toBe(1);
    expect(await items.first().textContent()).toContain(rejected.ref);
    await ops.reload();
    await poll(() => noticesButton(ops).getAttribute("aria-label")).toBe("Notices");
    await noticesButton(ops).click();
    await poll(() => noticesList(ops).getByRole("listitem").count()).toBe(1);
    await ops.context().close();
  });

  it("a trader's rejected order names side, amount, market, profile and ref_id", async () => {
    const held = await heldOrder();
    const trader = await openAs("trader@example.com", "/orders");
    await reject(held.id, "Too far from the market");
    const toast = trader.getByTestId("toast");
    await poll(() => toast.allTextContents()).toEqual([
      expect.stringContaining(
        "Your order to buy 120 BTC on BTC/USD from Trading was rejected by approver@example.com: Too far from the market",
      ),
    ]);
    expect(await toast.textContent()).toContain(`ref_id ${held.ref}`);
    await trader.context().close();
  });
});

/**
 * Every visible link, button, input, select, textarea and summary in <main> that a shown toast's
 * box meets, at each scroll position of the page (a quarter of its height apart): one line each.
 * Also whether a toast was in the window at the top of the page, so the check is never empty.
 */
function coveredControls(page: Page) {
  return page.evaluate(() => {
    const toastBoxes = () =>
      [...document.querySelectorAll('[data-testid="toast"]')]
        .map((t) => t.getBoundingClientRect())
        .filter((r) => r.width > 1 && r.height > 1);
    const inWindow = (r: DOMRect) => r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
    const meet = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const controls = [...document.querySelectorAll("main :is(a[href], button, input, select, textarea, summary)")];
    window.scrollTo(0, 0);
    const shownAtTop = toastBoxes().some(inWindow);
    const covered = new Set<string>();
    const step = Math.max(100, innerHeight / 4);
    for (let y = 0; y <= document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      const toasts = toastBoxes().filter(inWindow);
      for (const c of controls) {
        const box = c.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || !inWindow(box) || !c.checkVisibility({ visibilityProperty: true })) {
          continue;
        }
        if (toasts.some((t) => meet(t, box))) {
          covered.add(`${c.tagName.toLowerCase()} "${(c.getAttribute("aria-label") ?? c.textContent ?? "").trim()}"`);
        }
      }
    }
    window.scrollTo(0, 0);
    return { shownAtTop, covered: [...covered] };
  });
}

/**
 * The header's visible controls (links, buttons, the choices) that a shown toast's box meets, or
 * that are not what a press at their centre reaches: one line each. Also how many toasts show,
 * whether each lies inside the header (so over nothing of the page), and how many controls were
 * looked at, so the check is never empty.
 */
function headerCovered(page: Page) {
  return page.evaluate(() => {
    window.scrollTo(0, 0);
    // The page's header (the first; a card's own <header> is the page's part).
    const banner = document.querySelector("header")!;
    const header = banner.getBoundingClientRect();
    const toasts = [...document.querySelectorAll('[data-testid="toast"]')]
      .map((t) => t.getBoundingClientRect())
      .filter((r) => r.width > 1 && r.height > 1);
    const meet = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const covered: string[] = [];
    let looked = 0;
    for (const c of banner.querySelectorAll(":is(a[href], button, input, select, summary)")) {
      const box = c.getBoundingClientRect();
      if (c.closest('[data-testid="toast"]') || box.width === 0 || !c.checkVisibility({ visibilityProperty: true })) {
        continue;
      }
      looked++;
      const atCentre = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (toasts.some((t) => meet(t, box)) || !atCentre || !c.contains(atCentre)) {
        covered.push(`${c.tagName.toLowerCase()} "${(c.getAttribute("aria-label") ?? c.textContent ?? "").trim()}"`);
      }
    }
    const inHeader = toasts.every(
      (t) => t.top >= header.top && t.bottom <= header.bottom && t.left >= header.left && t.right <= header.right,
    );
    return { toasts: toasts.length, inHeader, covered, looked };
  });
}

/** A shown toast covers no control of the header, nor (on a phone) a page of the opened Menu. */
async function expectHeaderClear(page: Page, size: string) {
  const seen = await headerCovered(page);
  expect(seen, `the header at ${size}`).toEqual({ toasts: 1, inHeader: true, covered: [], looked: seen.looked });
  // The mark, Notices, Sign out, the time zone's and theme's choices, ? and the pages or Menu.
  expect(seen.looked).toBeGreaterThanOrEqual(9);
  const menu = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: /^Menu/ });
  if (!(await menu.isVisible())) return;
  await menu.click();
  const open = await headerCovered(page);
  expect(open, `the header at ${size}, its Menu open`).toEqual({
    toasts: 1,
    inHeader: true,
    covered: [],
    looked: open.looked,
  });
  expect(open.looked).toBeGreaterThan(seen.looked);
  await page.keyboard.press("Escape");
}

describe("a toast never covers a control of the header or the page", () => {
  for (const [size, viewport] of [
    ["1280×800", LAPTOP],
    ["390×844", PHONE],
  ] as const) {
    it(`/orders at ${size}: clear of the header's controls, Export CSV, the Status column and every other control`, async () => {
      // The trader's own open orders: a table with its Status column and a Cancel per row.
      for (let i = 0; i < 3; i++) await placed(d.as.trader, newRef(`e2e-notice-rows-${viewport.width}`));
      const held = await heldOrder();
      const page = await openAs("trader@example.com", "/orders", viewport);
      await poll(() => page.getByRole("button", { name: /^Cancel order / }).count()).toBeGreaterThanOrEqual(3);
      expect(
        await page
          .locator("main")
          .getByRole("link", { name: /Export CSV/ })
          .count(),
      ).toBe(1);
      await reject(held.id, "Not today");
      await poll(() => page.getByTestId("toast").count()).toBe(1);
      await expectHeaderClear(page, size);
      expect(await coveredControls(page)).toEqual({ shownAtTop: true, covered: [] });
      await page.context().close();
    });

    it(`/transfers at ${size}: clear of the header's controls, the form, Export CSV and the table`, async () => {
      const held = await heldTransfer("11000");
      const page = await openAs("ops@example.com", "/transfers", viewport);
      expect(
        await page
          .locator("main")
          .getByRole("link", { name: /Export CSV/ })
          .count(),
      ).toBe(1);
      await reject(held.id, "Not today");
      await poll(() => page.getByTestId("toast").count()).toBe(1);
      await expectHeaderClear(page, size);
      expect(await coveredControls(page)).toEqual({ shownAtTop: true, covered: [] });
      await page.context().close();
    });
  }
});

async function placed(who: Client, ref: string) {
  const res = await who.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
