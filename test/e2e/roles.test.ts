import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import { launchBrowser, signInWithForm } from "../support/browser";
import type { Market } from "@/lib/spec/enums";
import { marketLabel } from "@/lib/spec/markets";
import { newRef, smallOrder, TRADING } from "../support/dashboard";
import { resetApp } from "../support/shared-app";

/**
 * What each role may use, signed in through the sign-in page as a person would. (Each page's
 * accessibility, as each role sees it, is scanned in its visit: visits.test.ts.)
 */

let app: { url: string };
let browser: Browser;
/** A resting order, so the orders table has a row each role could try to cancel. */
let openOrder: { id: string; side: string; market: Market };
beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts) reset: market maker off, an empty
  // database, and so its open order on the orders table's first page.
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
  const trader = await signIn(app, "trader@example.com");
  const res = await trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(newRef("roles")));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  openOrder = res.body;
});
afterAll(async () => {
  await browser?.close();
});

const ROLES = [
  { email: "viewer@example.com", role: "viewer", ticket: false, transferForm: false, cancel: false },
  { email: "trader@example.com", role: "trader", ticket: true, transferForm: false, cancel: true },
  { email: "ops@example.com", role: "ops", ticket: false, transferForm: true, cancel: false },
  { email: "admin@example.com", role: "admin", ticket: true, transferForm: true, cancel: true },
];

/**
 * The open order's Cancel button, once its row is on screen: waiting for the row first
 * keeps "no button" from passing just because the table has not loaded yet.
 */
async function cancelButtonOfOpenOrder(page: Page) {
  const row = page.getByRole("row").filter({ hasText: openOrder.id.slice(0, 8) });
  await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
  const label = `${openOrder.side} ${marketLabel(openOrder.market)} ${openOrder.id.slice(0, 8)}`;
  return { button: row.getByRole("button", { name: `Cancel order ${label}` }), label };
}

/** Cancel opens its confirm step; "Keep" backs out, so the order stays open for the next role. */
async function expectCancelUsable(page: Page) {
  const { button, label } = await cancelButtonOfOpenOrder(page);
  await button.click();
  const confirm = page.getByRole("group", { name: `Confirm cancel of order ${label}` });
  await expect.poll(() => confirm.getByRole("button", { name: "Cancel order" }).isEnabled()).toBe(true);
  await confirm.getByRole("button", { name: "Keep" }).click();
  await expect.poll(() => button.count()).toBe(1);
}

describe("signing in as each role", () => {
  it.each(ROLES)("$role sees what the $role role may use", async ({ email, role, ticket, transferForm, cancel }) => {
    const page = await browser.newPage();
    // Signing in by the form and on to /transfers, no page throws (no hydration mismatch: React #418).
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message.slice(0, 300)));
    await signInWithForm(page, app.url, email);
    await expect.poll(() => page.getByTestId("role").textContent()).toBe(role);
    expect(await page.getByRole("form", { name: "Order ticket" }).count()).toBe(ticket ? 1 : 0);
    const { button } = await cancelButtonOfOpenOrder(page);
    expect(await button.count(), "Cancel on the open order").toBe(cancel ? 1 : 0);
    if (cancel) await expectCancelUsable(page);
    await page.getByRole("link", { name: "Transfers" }).click();
    await page.waitForURL(/\/transfers$/);
    expect(await page.getByRole("form", { name: "Internal transfer" }).count()).toBe(transferForm ? 1 : 0);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("refuses a wrong password with a clear message and keeps the user out", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/signin`);
    await page.getByLabel("Email").fill("trader@example.com");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("#signin-error").textContent()).toContain("do not match");
    await page.goto(`${app.url}/orders`);
    await page.waitForURL(/\/signin/);
    await page.close();
  });
});
