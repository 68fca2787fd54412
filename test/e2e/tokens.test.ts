import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import {
  afterNextFrames,
  expectNoSidewaysScroll,
  keptPage,
  launchBrowser,
  LAYOUT_WIDTHS,
  poll,
  settled,
  signInAs,
} from "../support/browser";
import { newRef, SETTLEMENT, TREASURY } from "../support/dashboard";
import { resetApp } from "../support/shared-app";

/**
 * The API tokens page (issue 28), at a laptop's 1280 and a phone's 390 px, reached from the
 * person's menu: a refused form fits the page and sends nothing; a token made
 * through the page shows its secret once, which then reads the orders (200) and is refused an
 * approval (403, four eyes stay human); revoked through the page, the same secret is a 401. An
 * admin sees another person's token with its owner. Screenshots go to SHOTS_DIR when it is set.
 * Each rule at its field, and the scopes a role cannot use, are the components project's
 * (test/components/token-form.test.tsx).
 */

let app: { url: string };
let browser: Browser;
/** A request held for approval: what a token tries to approve. */
let approvalId: string;
beforeAll(async () => {
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
  const ops = await signIn(app, "ops@example.com");
  const held = await ops.call("POST", "/api/v2/transfer/internal", {
    from_profile_id: TREASURY,
    to_profile_id: SETTLEMENT,
    asset: "USD",
    amount: "15000",
    ref_id: newRef("tokens-held"),
  });
  expect(held.status, JSON.stringify(held.body)).toBe(202);
  approvalId = held.body.approval.id;
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** A request by a script: the secret in `Authorization`, no cookie, no Origin. */
const byToken = (secret: string, method: string, path: string) =>
  fetch(`${app.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${secret}`, ...(method === "GET" ? {} : { "Content-Type": "application/json" }) },
    body: method === "GET" ? undefined : "{}",
  });

/** Opens /orders as `email`, then the tokens page from the person's menu, as a person would at that width. */
async function tokensPage(width: number, email: string): Promise<Page> {
  const page = await keptPage(browser, { width, height: width > 500 ? 800 : 844 });
  await signInAs(page, app.url, email);
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = nav.getByRole("button", { name: /^Menu/ });
  if (width < 768) {
    // A phone: the person's own pages close the Menu.
    await menu.click();
  } else expect(await menu.isVisible()).toBe(false);
  await nav.getByRole("link", { name: "API tokens" }).click();
  await page.waitForURL(/\/tokens$/);
  await settled(page);
  return page;
}

function parts(page: Page) {
  const form = page.getByRole("form", { name: "New API token" });
  return {
    form,
    name: form.getByLabel("Name"),
    days: form.getByLabel("Expires in days"),
    scope: (scope: string) => form.getByRole("checkbox", { name: new RegExp(`^${scope}\\b`) }),
    create: form.getByRole("button", { name: "Create token" }),
    secretBox: page.getByTestId("new-secret"),
  };
}

/** The message shown under the input labelled `label` (its aria-describedby's alert). */
async function fieldError(page: Page, label: string): Promise<string> {
  const input = parts(page).form.getByLabel(label, { exact: true });
  await poll(() => input.getAttribute("aria-invalid")).toBe("true");
  const ids = (await input.getAttribute("aria-describedby"))!.split(" ");
  return (await page.locator(`[id="${ids.at(-1)}"]`).textContent())!;
}

function watchTokenPosts(page: Page): () => number {
  let n = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/tokens") n += 1;
  });
  return () => n;
}

describe.each(LAYOUT_WIDTHS)("the API tokens page at %s width (%i px)", (label, width) => {
  const tokenName = `settlement job ${label}`;
  let secret = "";

  it("fits a refused form without sideways scroll; makes a token through the page: its secret shown once reads the orders (200), never approves (403)", async () => {
    const page = await tokensPage(width, "trader@example.com");
    const f = parts(page);
    const posts = watchTokenPosts(page);
    await f.days.fill("91");
    await f.create.click();
    expect(await fieldError(page, "Expires in days")).toBe("Expires in days may be at most 90");
    await expectNoSidewaysScroll(page, `the refused form at ${width} px`);
    await shot(page, `tokens-refused-${width}`);
    await afterNextFrames(page);
    expect(posts(), "a refused form sends nothing").toBe(0);

    await f.name.fill(tokenName);
    await f.scope("trade").check();
    await f.days.fill("7");
    await f.create.click();
    await f.secretBox.waitFor();
    expect(await f.secretBox.getByRole("heading").textContent()).toMatch(/you will not see it again/i);
    secret = (await page.getByTestId("secret-value").textContent())!;
    expect(secret).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByTestId("secret-usage").textContent()).toBe(
      `curl -H "Authorization: Bearer ${secret}" ${new URL(app.url).origin}/api/orders`,
    );
    expect(await f.secretBox.getByRole("button", { name: "Copy", exact: true }).isVisible()).toBe(true);
    // The form is empty again, for another token.
    expect(await f.name.inputValue()).toBe("");

    const row = page.locator('[role="row"][data-row]', { hasText: tokenName });
    await poll(() => row.getAttribute("data-status")).toBe("active");
    expect(await row.textContent()).toContain("read, trade");
    expect(await row.textContent()).toContain("never");
    await expectNoSidewaysScroll(page, `the secret and the table at ${width} px`);
    await shot(page, `tokens-created-${width}`);

    const orders = await byToken(secret, "GET", "/api/orders");
    expect(orders.status, await orders.clone().text()).toBe(200);
    const approve = await byToken(secret, "POST", `/api/approvals/${approvalId}/approve`);
    expect(approve.status, await approve.clone().text()).toBe(403);

    // Dismissed, the secret is gone from the page; the server never shows it again.
    await f.secretBox.getByRole("button", { name: /hide the secret/ }).click();
    await poll(() => f.secretBox.count()).toBe(0);
    expect(await page.locator("body").textContent()).not.toContain(secret);
    const list = await page.evaluate(() => fetch("/api/tokens").then((r) => r.text()));
    expect(list).toContain(tokenName);
    expect(list).not.toContain(secret);
    await page.close();
  });

  it("revokes the token through the page after a confirmation: the same secret is then a 401", async () => {
    expect(secret, "the token made above").not.toBe("");
    const page = await tokensPage(width, "trader@example.com");
    const row = page.locator('[role="row"][data-row]', { hasText: tokenName });
    await poll(() => row.getAttribute("data-status")).toBe("active");
    // Used once above: its last use shows.
    await poll(() => row.textContent()).not.toContain("never");
    await row.getByRole("button", { name: `Revoke ${tokenName}` }).click();
    const confirm = row.getByRole("group", { name: `Revoke ${tokenName}?` });
    await expectNoSidewaysScroll(page, `the revoke confirmation at ${width} px`);
    await shot(page, `tokens-confirm-${width}`);
    await confirm.getByRole("button", { name: "Revoke it" }).click();
    await poll(() => row.getAttribute("data-status")).toBe("revoked");
    expect(await row.getByRole("button").count()).toBe(0);
    const refused = await byToken(secret, "GET", "/api/orders");
    expect(refused.status).toBe(401);
    await page.close();
  });

  it("shows an admin everyone's tokens, each with its owner", async () => {
    const page = await tokensPage(width, "admin@example.com");
    const table = page.getByRole("table", { name: "API tokens of everyone" });
    const row = table.locator('[role="row"][data-row]', { hasText: tokenName });
    await poll(() => row.getAttribute("data-status")).toBe("revoked");
    const owner = row.getByRole("cell").nth(1);
    expect(await owner.textContent()).toContain("trader@example.com");
    if (width > 1000) expect(await table.getByRole("columnheader", { name: "Owner" }).isVisible()).toBe(true);
    // Every scope is of use to an admin.
    for (const scope of ["read", "trade", "transfer", "batch"])
      expect(await parts(page).scope(scope).isEnabled(), scope).toBe(true);
    await expectNoSidewaysScroll(page, `an admin's tokens at ${width} px`);
    await shot(page, `tokens-admin-${width}`);
    await page.close();
  });
});
