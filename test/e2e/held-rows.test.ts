import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  keptPage,
  launchBrowser,
  poll,
  screenshot,
  settled,
  signInAs,
  WIDTHS,
} from "../support/browser";
import {
  newRef,
  sharedDashboard,
  smallOrder,
  smallTransfer,
  TRADING,
  type SharedDashboard,
} from "../support/dashboard";

/**
 * Held requests in the blotters, in a browser at a laptop's width: a sell the desk's four eyes
 * hold (worth more than the order rule's 100,000 USD) is a row of the Orders table, "Awaiting
 * approval", with who asked, its expiry and a link to its approval; a 120 USD transfer held under
 * a transfer rule tightened to 100 USD likewise in the Transfers table, until it is rejected.
 */

let d: SharedDashboard;
let browser: Browser;
interface Held {
  id: string;
  expires_at: string;
}
let sell: Held;
let transfer: Held;

async function held(res: { status: number; body: any }): Promise<Held> {
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.approval;
}

beforeAll(async () => {
  [d, browser] = await Promise.all([sharedDashboard(), launchBrowser()]);
  // One order and one transfer the service has, so the held rows sit among real ones.
  const order = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("sent")));
  expect(order.status, JSON.stringify(order.body)).toBe(200);
  const sent = await d.as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(newRef("sent")));
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  // Tightening applies at once: transfers of 100 USD and more wait for an approver.
  const { policy } = (await d.as.admin.call("GET", "/api/policies")).body;
  const rules = policy.approval_rules.map((r: { kind: string }) =>
    r.kind === "transfer" ? { ...r, threshold_usd: "100" } : r,
  );
  expect((await d.as.admin.call("PUT", "/api/policies", { ...policy, approval_rules: rules })).status).toBe(200);
  sell = await held(
    await d.as.trader.call(
      "POST",
      `/api/v2/profiles/${TRADING}/orders`,
      smallOrder(newRef("held-sell"), { market: "BTCUSD", side: "SELL", price: "90000.00", base_amount: "3" }),
    ),
  );
  transfer = await held(
    await d.as.ops.call("POST", "/api/v2/transfer/internal", smallTransfer(newRef("held-t"), { amount: "120" })),
  );
});
afterAll(async () => {
  await browser?.close();
});

async function pageAs(email: string, path: string): Promise<Page> {
  const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
  await signInAs(page, d.url, email, undefined, path);
  return page;
}

/** The records' rows of the table captioned `caption`. */
const rowsOf = (page: Page, caption: string): Locator =>
  page.locator("table", { has: page.locator(`caption:text-is("${caption}")`) }).locator("tr[data-row]");

const heldRow = (page: Page, caption: string, approvalId: string) =>
  rowsOf(page, caption).and(page.locator(`[data-row="held:${approvalId}"]`));

/** What a held row must show: the words, who asked, the expiry's instant, the link to its approval. */
async function expectHeldRow(row: Locator, approval: Held, requester: string) {
  const text = await row.innerText();
  expect(text).toContain("Awaiting approval");
  expect(text).toContain(`by ${requester}`);
  expect(await row.locator(`time[datetime="${new Date(approval.expires_at).toISOString()}"]`).count()).toBe(1);
  const link = row.getByRole("link", { name: `Approval ${approval.id.slice(0, 8)}` });
  expect(await link.getAttribute("href")).toBe(`/approvals#approval-${approval.id}`);
  const within = `tr[data-row="held:${approval.id}"]`;
  expect(await axeViolations(row.page(), { within }), `accessibility of ${within}`).toEqual([]);
}

describe(`held requests in the blotters at ${WIDTHS.laptop} px`, () => {
  it("shows the held sell on top of the Orders table, awaiting approval, linked to its approval; Side and Status filter it", async () => {
    const page = await pageAs("trader@example.com", "/orders");
    const row = heldRow(page, "Orders", sell.id);
    await poll(() => row.count()).toBe(1);
    expect(await rowsOf(page, "Orders").first().getAttribute("data-row")).toBe(`held:${sell.id}`);
    expect(await rowsOf(page, "Orders").count()).toBe(2);
    await expectHeldRow(row, sell, "trader@example.com");
    const text = await row.innerText();
    expect(text).toContain("SELL");
    expect(text).toContain("BTC/USD");
    await screenshot(page, `held-orders-${WIDTHS.laptop}`);

    // What the table shows: how many rows, and whether the held sell is among them.
    const shown = async () => `${await rowsOf(page, "Orders").count()} rows, held ${await row.count()}`;
    const filters = page.getByRole("toolbar", { name: "Filter orders" });
    await filters.getByLabel("Side", { exact: true }).selectOption("BUY");
    await poll(shown).toBe("1 rows, held 0");
    await filters.getByLabel("Side", { exact: true }).selectOption("SELL");
    await filters.getByLabel("Status", { exact: true }).selectOption("AWAITING_APPROVAL");
    await poll(shown).toBe("1 rows, held 1");
    expect(new URL(page.url()).searchParams.get("status")).toBe("AWAITING_APPROVAL");

    // Its requester follows the link to the request on the approvals page.
    await row.getByRole("link", { name: `Approval ${sell.id.slice(0, 8)}` }).click();
    await page.waitForURL((url) => url.pathname === "/approvals" && url.hash === `#approval-${sell.id}`);
    await poll(() => page.locator(`[data-approval-id="${sell.id}"]`).count()).toBe(1);
    // The link lands on the request itself: its anchor, in view.
    const anchor = page.locator(`[id="approval-${sell.id}"]`);
    await poll(() => anchor.count()).toBe(1);
    await poll(() =>
      anchor.evaluate(
        (el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().top < window.innerHeight,
      ),
    ).toBe(true);
    await page.close();
  });

  it("shows the held transfer in the Transfers table likewise, and drops it once rejected", async () => {
    const page = await pageAs("viewer@example.com", "/transfers");
    const row = heldRow(page, "Transfers, one row per transfer with its legs below", transfer.id);
    await poll(() => row.count()).toBe(1);
    await expectHeldRow(row, transfer, "ops@example.com");
    const text = await row.innerText();
    expect(text).toContain("Treasury → Settlement");
    expect(text).toMatch(/120\.00\s+USD/);
    await screenshot(page, `held-transfers-${WIDTHS.laptop}`);

    // A filter the held transfer meets, chosen once the stream is up: the table is then read
    // again only when told, never on a timer, so nothing but the approval's news can drop the row.
    await settled(page);
    await page
      .getByRole("toolbar", { name: "Filter transfers" })
      .getByLabel("Asset", { exact: true })
      .selectOption("USD");
    await poll(() => page.url()).toContain("asset=USD");
    await settled(page);
    expect(await row.count()).toBe(1);
    const res = await d.as.approver.call("POST", `/api/approvals/${transfer.id}/reject`, { reason: "Not today" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Nothing changed at the service: the approval's event makes the open table read again.
    await poll(() => row.count()).toBe(0);
    await page.close();
  });
});
