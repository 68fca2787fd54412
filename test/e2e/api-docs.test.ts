import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSidewaysScroll, launchBrowser, poll, screenshot, signInAs, WIDTHS } from "../support/browser";
import { resetApp } from "../support/shared-app";

/**
 * The API docs page (issue 28): the app's own OpenAPI document drawn by a package the app serves
 * itself (Scalar), reached from the person's menu and from the API tokens page. Every request the
 * page makes goes to the app's own origin (no CDN, no fonts, no telemetry, no agent chat), the
 * page's Content-Security-Policy refuses nothing and the console has no error; there is no "try
 * it" client, and the code samples call the dashboard itself. Signed out, it is the sign-in page.
 */

let app: { url: string };
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
});

/** What a page did that the docs must not: requests elsewhere, CSP refusals, console errors. */
interface Watch {
  /** Every URL the page's context asked for (workers' included). */
  requests: string[];
  errors: string[];
  /** CSP refusals, as the document reports them (securitypolicyviolation). */
  violations: () => Promise<string[]>;
}

/** A page of its own, `width` wide, watched from its first request. */
async function watchedPage(width: number): Promise<{ page: Page; watch: Watch }> {
  const page = await browser.newPage({ viewport: { width, height: width > 500 ? 800 : 844 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.context().on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text().slice(0, 300));
  });
  page.on("pageerror", (e) => errors.push(e.message.slice(0, 300)));
  // Before the page's own scripts: a refusal while it loads is caught too.
  await page.addInitScript({
    content: `window.__csp = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber));`,
  });
  const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  return { page, watch: { requests, errors, violations } };
}

/** Requests to anything but the app's origin; data: and blob: URLs never leave the browser. */
const foreign = (requests: string[]) =>
  requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== new URL(app.url).origin);

async function expectNothingLeft(watch: Watch): Promise<void> {
  expect(foreign(watch.requests), "requests to another origin").toEqual([]);
  expect(await watch.violations(), "CSP violations").toEqual([]);
  expect(watch.errors, "console errors").toEqual([]);
}

/** Until the reference has drawn the document (its title, from /api/openapi.json). */
const drawn = (page: Page) =>
  page.getByRole("heading", { name: "Treasury dashboard API" }).waitFor({ timeout: 20_000 });

describe("the API docs page", () => {
  it("opens from the person's menu and draws the document, all from the app's own origin", async () => {
    const { page, watch } = await watchedPage(WIDTHS.laptop);
    await signInAs(page, app.url, "viewer@example.com");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API docs" }).click();
    await page.waitForURL(/\/api-docs$/);
    await drawn(page);
    expect(watch.requests).toContain(`${app.url}/api/openapi.json`);

    // The orders' operations, as a person unfolds them.
    await page.getByRole("button", { name: "Show all orders endpoints" }).click();
    const create = page.getByRole("heading", { name: "Create an order" });
    await create.first().waitFor();
    expect(await page.getByText("/api/v2/profiles/{profile_id}/orders").first().isVisible()).toBe(true);
    // The samples call the dashboard itself; no client sends anything from here.
    const reference = page.getByTestId("api-reference");
    await poll(() => reference.textContent()).toContain(`curl '${app.url}/api/v2/profiles/{profile_id}/orders'`);
    expect(await page.getByRole("button", { name: /Test Request|Open API Client/ }).count()).toBe(0);
    await expectNoSidewaysScroll(page, "the API docs at 1280 px");
    await screenshot(page, "api-docs-1280");

    // The header's theme choice rules the reference too.
    await page.getByRole("group", { name: "Theme" }).getByRole("button", { name: "Dark" }).click();
    await poll(() => page.evaluate(() => document.body.classList.contains("dark-mode"))).toBe(true);
    await drawn(page);
    await screenshot(page, "api-docs-1280-dark");

    await expectNothingLeft(watch);
    await page.close();
  });

  it("is linked from the API tokens page and in the phone's Menu, and fits a phone", async () => {
    const { page, watch } = await watchedPage(WIDTHS.phone);
    await signInAs(page, app.url, "trader@example.com", undefined, "/tokens");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("button", { name: /^Menu/ }).click();
    expect(await nav.getByRole("link", { name: "API docs" }).isVisible()).toBe(true);
    await nav.getByRole("button", { name: /^Menu/ }).click();

    await page.getByRole("main").getByRole("link", { name: "API docs" }).click();
    await page.waitForURL(/\/api-docs$/);
    await drawn(page);
    await expectNoSidewaysScroll(page, "the API docs at 390 px");
    await screenshot(page, "api-docs-390");
    await expectNothingLeft(watch);
    await page.close();
  });

  it("sends a signed-out visit to sign in (the document itself needs no session)", async () => {
    const page = await fetch(`${app.url}/api-docs`, { redirect: "manual" });
    expect(page.status).toBe(307);
    expect(new URL(page.headers.get("location")!, app.url).pathname).toBe("/signin");
    const document = await fetch(`${app.url}/api/openapi.json`);
    expect(document.status).toBe(200);
  });
});
