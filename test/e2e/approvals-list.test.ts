import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, poll, signedIn } from "../support/browser";
import { newRef, resetDashboard, SETTLEMENT, TREASURY, type Dashboard } from "../support/dashboard";

/**
 * Many requests waiting (issue 26: "14 waiting approvals take 5,330 px, with no compact list,
 * filter or sort"): past five, the Approvals page lists them one line each, filters them by kind
 * and requester, sorts them, and unfolds one's card, with its buttons, in place.
 */

let d: Dashboard;
let browser: Browser;
beforeAll(async () => {
  [d, browser] = await Promise.all([resetDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

/** Fourteen transfers over the 10,000 USD rule, each its own amount: 11,000 to 24,000 USD. */
const AMOUNTS = Array.from({ length: 14 }, (_, i) => String(11_000 + i * 1_000));

describe("the Approvals page with many requests waiting", () => {
  it("lists fourteen one line each within a screen and a half, filters, sorts and opens one in place", async () => {
    for (const amount of AMOUNTS) {
      const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
        from_profile_id: TREASURY,
        to_profile_id: SETTLEMENT,
        asset: "USD",
        amount,
        ref_id: newRef("many"),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
    }
    const page = await signedIn(browser, d.url, "approver@example.com", 1280, 800, "/approvals");
    const rows = page.getByTestId("approval-rows").locator("tbody tr[data-approval-id]");
    await poll(() => rows.count()).toBe(14);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, "fourteen requests fit in a screen and a half").toBeLessThanOrEqual(1200);

    // Largest first: 24,000 USD, then 23,000.
    await page.getByLabel("Sort", { exact: true }).selectOption({ label: "Largest first" });
    await poll(() => rows.first().innerText()).toContain("24,000.00 USD");
    expect(await rows.nth(1).innerText()).toContain("23,000.00 USD");
    expect(new URL(page.url()).searchParams.get("sort")).toBe("largest");

    // No order waits; the requester filter finds ops's.
    await page.getByLabel("Kind", { exact: true }).selectOption({ label: "Orders" });
    await poll(() => rows.count()).toBe(0);
    await page.getByLabel("Kind", { exact: true }).selectOption({ label: "Transfers" });
    await page.getByLabel("Requested by", { exact: true }).fill("nobody");
    await poll(() => rows.count()).toBe(0);
    await page.getByLabel("Requested by", { exact: true }).fill("ops@");
    await poll(() => rows.count()).toBe(14);

    // Opening one unfolds its card, with its decision, under its line.
    await rows
      .first()
      .getByRole("button", { name: /^Open the request/ })
      .click();
    const card = page.getByTestId("approval-rows").locator("tbody tr:not([data-approval-id])").first();
    await poll(() => card.getByRole("button", { name: /^Approve/ }).count()).toBe(1);
    expect(await card.innerText()).toContain("24,000");

    // Cards on request, as before.
    await page.getByRole("button", { name: "Cards" }).click();
    await poll(() => page.getByTestId("approval-rows").count()).toBe(0);
    await page.close();
  });
});
