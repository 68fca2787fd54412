import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { armed, launchBrowser, poll, signedIn as signedInPage } from "../support/browser";
import { newRef, resetDashboard, TREASURY, type Dashboard } from "../support/dashboard";

/**
 * The desk's controls as a person meets them in the forms (issue 10): the limits and approval
 * rules said before review, "needs approval by an approver" in the review, "Awaiting approval"
 * followed until an approver in another browser decides, and the price guard's typed market.
 */

vi.setConfig({ testTimeout: 120_000 });

let d: Dashboard;
let browser: Browser;
beforeAll(async () => {
  // The market maker off (as the lane's app starts): a thin ETHUSD book of this file's own for the price guard.
  [d, browser] = await Promise.all([resetDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

const signedIn = (email: string) => signedInPage(browser, d.url, email, 1440);

async function loadedForm(page: Page, name: string, select: string): Promise<Locator> {
  const form = page.getByRole("form", { name });
  await poll(() => form.getByLabel(select, { exact: true }).locator("option").count()).toBeGreaterThan(1);
  return form;
}

describe("four eyes in the transfer form", () => {
  it("says a 20,000 USD transfer needs approval, holds it, and follows it until an approver approves", async () => {
    const ops = await signedIn("ops@example.com");
    await ops.getByRole("link", { name: "Transfers" }).click();
    await ops.waitForURL(/\/transfers$/);
    const form = await loadedForm(ops, "Internal transfer", "From profile");
    expect(await form.getByTestId("controls-line").innerText()).toBe(
      "Your limits: 1,000,000.00 USD a day. Transfers of 10,000.00 USD or more need approval by an approver, counting what you sent without approval in the last 24 h.",
    );
    await form.getByLabel("From profile").selectOption({ label: "Treasury" });
    await form.getByLabel("To profile").selectOption({ label: "Settlement" });
    await form.getByLabel("Asset").selectOption("USD");
    await form.getByLabel("Amount", { exact: true }).fill("20000.17");
    await form.getByRole("button", { name: "Review transfer" }).click();
    await poll(() => form.getByTestId("needs-approval").count()).toBe(1);
    expect(await form.getByTestId("needs-approval").innerText()).toContain("Needs approval by an approver");
    expect(await form.getByTestId("controls-note").innerText()).toContain("Worth about 20,000.17 USD.");
    // Nothing is sent now: the button says what it does.
    await (await armed(form.getByRole("button", { name: "Submit for approval" }))).click();

    const card = form.getByTestId("awaiting-approval");
    await poll(() => card.getByTestId("approval-status").textContent()).toBe("Awaiting approval");
    expect(await card.getByTestId("approval-countdown").innerText()).toMatch(/^expires in (1 h 59 min|2 h 00 min) \(/);
    // Nothing reached the service: no transfer of that amount.
    const made = await d.sandbox.call("GET", `/transfer/transfers?profile_ids=${TREASURY}&limit=100`);
    expect(made.body.items.some((t: { amount: string }) => t.amount === "20000.17")).toBe(false);

    // An approver, in a browser of their own, approves it.
    const approver = await signedIn("approver@example.com");
    const id = (await card.locator("p.font-mono").innerText()).replace("approval ", "");
    const approved = await approver.evaluate(
      (url) => fetch(url, { method: "POST" }).then((r) => r.status),
      `/api/approvals/${id}/approve`,
    );
    expect(approved).toBe(200);

    await poll(() => card.getByTestId("approval-status").textContent()).toBe("Approved");
    expect(await card.getByTestId("approval-decision").innerText()).toBe("Approved by approver@example.com and sent.");
    await poll(() => card.getByTestId("transfer-result").count()).toBe(1);
    await poll(() =>
      ops
        .getByTestId("toast")
        .filter({ hasText: "Your transfer of 20,000.17 USD from Treasury to Settlement was approved and sent" })
        .count(),
    ).toBe(1);
    await ops.close();
    await approver.close();
  });
});

describe("the price guard in the order ticket", () => {
  it("asks for the market's name typed before sending an order that trades far from the mid", async () => {
    // A thin ETHUSD book: bid 100, ask 120 (mid 110). Buying at 120 trades 9.09% from the mid.
    for (const [side, price] of [
      ["BUY", "100.00"],
      ["SELL", "120.00"],
    ] as const) {
      const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, {
        market: "ETHUSD",
        side,
        type: "LIMIT",
        price,
        base_amount: "1",
        ref_id: newRef("book"),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const trader = await signedIn("trader@example.com");
    const ticket = await loadedForm(trader, "Order ticket", "Profile");
    expect(await ticket.getByTestId("controls-line").innerText()).toBe(
      "Your limits: 1,000,000.00 USD an order, 10,000,000.00 USD a day. Orders of 100,000.00 USD or more need approval by an approver, counting what you sent without approval in the last 24 h.",
    );
    await ticket.getByLabel("Profile", { exact: true }).selectOption({ label: "Trading" });
    await ticket.getByLabel("Market", { exact: true }).selectOption("ETHUSD");
    await ticket.getByLabel("Price (USD)", { exact: true }).fill("120.00");
    await ticket.getByLabel("Base amount (ETH)", { exact: true }).fill("0.05");
    await ticket.getByRole("button", { name: "Review order" }).click();
    await (await armed(ticket.getByRole("button", { name: "Confirm and send" }))).click();

    const guard = ticket.getByTestId("price-guard");
    await poll(() => guard.count()).toBe(1);
    expect(await guard.innerText()).toContain("9.09% from the mid of 110");
    const send = ticket.getByRole("button", { name: "Send past the guard" });
    expect(await send.isDisabled()).toBe(true);
    await guard.getByRole("textbox").fill("ETHUS");
    expect(await send.isDisabled()).toBe(true);
    await guard.getByRole("textbox").fill("ethusd");
    await (await armed(send)).click();
    await poll(() => ticket.getByTestId("order-result").count()).toBe(1);
    expect(await guard.count()).toBe(0);
    await trader.close();
  });
});
