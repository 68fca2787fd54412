import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  expectNoSidewaysScroll,
  hydrated,
  keptPage,
  launchBrowser,
  poll,
  screenshot,
  signInAs,
  WIDTHS,
} from "../support/browser";
import { COLOUR_RULES } from "../support/axe-rules";
import { resetApp } from "../support/shared-app";

/**
 * The API docs page (issue 28): the app's own OpenAPI document, rendered by the dashboard on the
 * server, reached from the person's menu and from the API tokens page. Every operation of the
 * document has its section; creating an order shows its path, its statuses and its token scope;
 * a schema's name jumps to the schema; the curl samples call the dashboard itself. Every request
 * goes to the app's own origin, the CSP refuses nothing, the console has no error; the dark
 * theme reads, and a phone never scrolls sideways. Signed out, it is the sign-in page. The whole
 * page's axe scan, in both themes, is the viewer's visit in visits.test.ts.
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
  const page = await keptPage(browser, { width, height: width > 500 ? 800 : 844 });
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

const CREATE_ORDER = "post /api/v2/profiles/{profile_id}/orders";

describe("the API docs page", () => {
  it("opens from the person's menu and shows every operation of the document, all from the app's own origin", async () => {
    const { page, watch } = await watchedPage(WIDTHS.laptop);
    await signInAs(page, app.url, "viewer@example.com");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API docs" }).click();
    await page.waitForURL(/\/api-docs$/);
    await hydrated(page);
    expect(await page.getByRole("heading", { name: "Treasury dashboard API" }).isVisible()).toBe(true);

    // One section per path and method of the document the app serves.
    const served = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const pairs = Object.values(served.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(pairs).toBeGreaterThan(40);
    expect(await page.locator("section[data-operation]").count()).toBe(pairs);

    const create = page.locator(`section[data-operation="${CREATE_ORDER}"]`);
    expect(await create.getByRole("heading", { name: "Create an order" }).isVisible()).toBe(true);
    expect(await create.getByText("/api/v2/profiles/{profile_id}/orders", { exact: true }).isVisible()).toBe(true);
    const responses = create.getByRole("table", { name: "Responses of Create an order" });
    for (const status of ["202", "428"])
      expect(await responses.getByRole("rowheader", { name: status, exact: true }).isVisible(), status).toBe(true);
    expect(await create.locator("dd", { hasText: /^trade$/ }).isVisible()).toBe(true);
    // The sample calls this very dashboard, with a token.
    expect(await create.locator("pre").textContent()).toContain(
      `curl -X POST "${app.url}/api/v2/profiles/$PROFILE_ID/orders" \\\n  -H "Authorization: Bearer $TOKEN"`,
    );
    await expectNoSidewaysScroll(page, "the API docs at 1280 px");
    await screenshot(page, "api-docs-1280");

    // The 202's schema name jumps to the schema.
    await responses.getByRole("row", { name: /^202/ }).getByRole("link", { name: "Held" }).click();
    await page.waitForURL(/#schema-Held$/);
    const held = page.locator("#schema-Held");
    await poll(() => held.evaluate((s) => Math.round(s.getBoundingClientRect().top))).toBeLessThan(50);
    expect(
      await held.getByRole("table", { name: "Fields of Held" }).getByRole("link", { name: "Approval" }).count(),
    ).toBe(1);

    // The header's dark theme: the reference reads in it (axe's contrast rules, on the order's section and a schema).
    await page.getByRole("group", { name: "Theme" }).getByRole("button", { name: "Dark" }).click();
    await poll(() => page.evaluate(() => document.documentElement.className)).toBe("dark");
    await create.scrollIntoViewIfNeeded();
    const within = [`section[data-operation="${CREATE_ORDER}"]`, "#schema-Policy"];
    expect(await axeViolations(page, { rules: COLOUR_RULES, within }), within.join(", ")).toEqual([]);
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
    await hydrated(page);
    expect(await page.locator(`section[data-operation="${CREATE_ORDER}"]`).isVisible()).toBe(true);
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
