import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { armed, launchBrowser, poll, signedIn as signedInPage, watchWrites } from "../support/browser";
import { newRef, resetDashboard, SETTLEMENT, TRADING, TREASURY, type Dashboard } from "../support/dashboard";

/**
 * The review tells the whole outcome before anything is sent (issue 26): the back end's dry run
 * weighs the person's rolling 24 h total, so a small request that the total pushes past a rule
 * is said to wait for approval (the rule, the total, who may approve, until when), and its
 * button says "Submit for approval". A market order held so is said to take its price at approval.
 * Seen by a new user: "Worth about 120.00 USD" with "Confirm and send", then "Awaiting approval".
 */

let d: Dashboard;
let browser: Browser;
beforeAll(async () => {
  // Its own people's totals: a fresh database. The market maker off: a book of this file's own.
  [d, browser] = await Promise.all([resetDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

const signedIn = (email: string) => signedInPage(browser, d.url, email, 1280, 800);

async function loadedForm(page: Page, name: string, select: string): Promise<Locator> {
  const form = page.getByRole("form", { name });
  await poll(() => form.getByLabel(select, { exact: true }).locator("option").count()).toBeGreaterThan(1);
  return form;
}

async function transferForm(page: Page): Promise<Locator> {
  await page.getByRole("link", { name: "Transfers" }).click();
  await page.waitForURL(/\/transfers$/);
  const form = await loadedForm(page, "Internal transfer", "From profile");
  await form.getByLabel("From profile").selectOption({ label: "Treasury" });
  await form.getByLabel("To profile").selectOption({ label: "Settlement" });
  await form.getByLabel("Asset").selectOption("USD");
  return form;
}

describe("the review weighs the rolling total before anything is sent", () => {
  it("says a 120 USD transfer will wait for approval once the day's total passes the rule, and submits it so", async () => {
    const ops = await signedIn("ops@example.com");
    const form = await transferForm(ops);
    // Before the total: sent at once, and the button says so.
    await form.getByLabel("Amount", { exact: true }).fill("120");
    await form.getByRole("button", { name: "Review transfer" }).click();
    const note = form.getByTestId("controls-note");
    await poll(() => note.getAttribute("data-outcome")).toBe("send");
    expect(await note.innerText()).toContain("Worth about 120.00 USD.");
    expect(await note.innerText()).toContain("It is sent at once: no approval is needed.");
    await armed(form.getByRole("button", { name: "Confirm and send" }));
    await form.getByRole("button", { name: "Edit" }).click();

    // 9,900 USD sent without approval by the same person elsewhere (a script, another tab).
    const sent = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: "9900",
      ref_id: newRef("earlier"),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    const writes = watchWrites(ops);
    await form.getByRole("button", { name: "Review transfer" }).click();
    await poll(() => note.getAttribute("data-outcome")).toBe("hold");
    const held = await form.getByTestId("needs-approval").innerText();
    expect(held).toContain("Needs approval by an approver before it is sent (transfers of 10,000.00 USD or more).");
    expect(held).toContain(
      "With this one, the transfers you sent without approval in the last 24 h come to 10,020.00 USD, past the 10,000.00 USD rule.",
    );
    expect(held).toMatch(/It waits for an approver or an admin other than you until \d{4}-\d\d-\d\d \d\d:\d\d/);
    expect(writes.writes(), "the review sends nothing").toEqual([]);
    await (await armed(form.getByRole("button", { name: "Submit for approval" }))).click();
    await poll(() => form.getByTestId("approval-status").textContent()).toBe("Awaiting approval");
    expect(writes.writes()).toEqual(["POST /api/v2/transfer/internal"]);
    await ops.close();
  });

  it("says a small market sell held by the total takes its price when approved", async () => {
    // ETHUSD quoted 1,990 / 2,010 (a mid of 2,000) by the treasury, straight at the service.
    for (const [side, price] of [
      ["BUY", "1990.00"],
      ["SELL", "2010.00"],
    ] as const) {
      const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, {
        market: "ETHUSD",
        side,
        type: "LIMIT",
        price,
        base_amount: "100",
        ref_id: newRef("book"),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // 99,800 USD of orders sent without approval: a bid resting under the mid, valued at the mid (49.9 × 2,000).
    const resting = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, {
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "1980.00",
      base_amount: "49.9",
      ref_id: newRef("resting"),
    });
    expect(resting.status, JSON.stringify(resting.body)).toBe(200);

    const trader = await signedIn("trader@example.com");
    const ticket = await loadedForm(trader, "Order ticket", "Profile");
    await ticket.getByLabel("Profile", { exact: true }).selectOption({ label: "Trading" });
    await ticket.getByLabel("Market", { exact: true }).selectOption("ETHUSD");
    await ticket.getByLabel("Order type", { exact: true }).selectOption("MARKET");
    await ticket.getByText("Sell", { exact: true }).click();
    await ticket.getByLabel("Base amount (ETH)", { exact: true }).fill("0.1");
    await ticket.getByRole("button", { name: "Review order" }).click();
    await poll(() => ticket.getByTestId("controls-note").getAttribute("data-outcome")).toBe("hold");
    const held = await ticket.getByTestId("needs-approval").innerText();
    expect(held).toContain("A market order takes its price when it is approved and sent, not the price now.");
    expect(held).toContain("Needs approval by an approver before it is sent (orders of 100,000.00 USD or more).");
    await armed(ticket.getByRole("button", { name: "Submit for approval" }));
    await trader.close();
  });

  it("says what the desk will refuse, in its words, before sending", async () => {
    const ops = await signedIn("ops@example.com");
    const form = await transferForm(ops);
    // Past the 1,000,000 USD a person may move in a day, with what this file sent before.
    await form.getByLabel("Amount", { exact: true }).fill("990000");
    await form.getByRole("button", { name: "Review transfer" }).click();
    await poll(() => form.getByTestId("controls-note").getAttribute("data-outcome")).toBe("refuse");
    expect(await form.getByTestId("will-refuse").innerText()).toBe(
      "The desk will refuse it: You may send at most 1,000,000.00 USD of transfers a day; 10,020.00 USD are sent or waiting today, and this one is 990,000.00 USD.",
    );
    await ops.close();
  });
});
