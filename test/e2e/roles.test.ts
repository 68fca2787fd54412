import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type AppServer } from "../support/app-server";
import { expectAccessible, launchBrowser, signInAs } from "../support/browser";

let app: AppServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

const ROLES = [
  { email: "viewer@example.com", role: "viewer", ticket: false, transferForm: false, cancel: false },
  { email: "trader@example.com", role: "trader", ticket: true, transferForm: false, cancel: true },
  { email: "ops@example.com", role: "ops", ticket: false, transferForm: true, cancel: false },
  { email: "admin@example.com", role: "admin", ticket: true, transferForm: true, cancel: true },
];

describe("signing in as each role", () => {
  it.each(ROLES)("$role sees what the $role role may use", async ({ email, role, ticket, transferForm }) => {
    const page = await browser.newPage();
    await signInAs(page, app.url, email);
    await expect.poll(() => page.getByTestId("role").textContent()).toBe(role);
    expect(await page.getByRole("form", { name: "Order ticket" }).count()).toBe(ticket ? 1 : 0);
    await expect.poll(() => page.getByRole("table").count()).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Transfers" }).click();
    await page.waitForURL(/\/transfers$/);
    expect(await page.getByRole("form", { name: "Internal transfer" }).count()).toBe(transferForm ? 1 : 0);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin/);
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

describe("accessibility (axe-core)", () => {
  it("catches a serious violation (the scan can fail)", async () => {
    const page = await browser.newPage();
    await page.setContent('<html lang="en"><body><main><img src="x.png"><button></button></main></body></html>');
    await expect(expectAccessible(page, "a broken page")).rejects.toThrow(/accessibility of a broken page/);
    await page.close();
  });

  it("has no serious or critical violation on the sign-in page", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/signin`);
    await expectAccessible(page, "/signin");
    await page.close();
  });

  it.each(["/orders", "/transfers", "/activity"])("has no serious or critical violation on %s", async (path) => {
    const page = await browser.newPage();
    await signInAs(page, app.url, "admin@example.com");
    await page.goto(`${app.url}${path}`);
    await page.waitForLoadState("networkidle");
    await expectAccessible(page, path);
    // The ticket's and form's advanced sections too, opened.
    for (const summary of await page.locator("summary").all()) await summary.click();
    await expectAccessible(page, `${path} with its sections open`);
    await page.close();
  });
});
