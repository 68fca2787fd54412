import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectAccessible,
  keptPage,
  launchBrowser,
  poll,
  screenshot,
  settled,
  signedIn,
  signInContext,
  WIDTHS,
} from "../support/browser";
import { resetDashboard, type Dashboard } from "../support/dashboard";

/**
 * Issue 26, the Policies page tells the truth: it states the approval rule as the create path
 * enforces it (a rolling 24 h total of what the person sent without approval), and a change that
 * waits for approval shows, with its approval, until it is decided, while the fields show the
 * policy in force. And a page that loads shows the shape of what it loads, busy and named, not a
 * line of text that the content then pushes away.
 */

let d: Dashboard;
let browser: Browser;
beforeAll(async () => {
  // An empty database and the default policy: every approval here is this file's.
  [d, browser] = await Promise.all([resetDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

const adminAt = (path: string) => signedIn(browser, d.url, "admin@example.com", WIDTHS.laptop, undefined, path);

const transferThreshold = (page: Page) =>
  page.getByRole("form", { name: "Policy" }).getByRole("group", { name: "Rule 1" }).getByLabel("From (USD)");

const waiting = (page: Page) => page.getByTestId("policy-waiting");

describe("the Policies page (admin, 1280 px)", () => {
  it("states the rolling 24 h rule as enforced, with the rule in force worked through", async () => {
    const page = await adminAt("/policies");
    await transferThreshold(page).waitFor();
    const rule = await page.getByTestId("approval-rule-words").innerText();
    expect(rule).toMatch(/sent of that kind without approval in the last 24 hours, this one included/);
    expect(rule).toMatch(/rule of the highest threshold reached applies/);
    expect(rule).toMatch(/What is approved does not count toward that total, nor what waits for approval/);
    expect(rule).toMatch(/no market prices in USD always waits for approval/);
    // The default transfer rule, from 10,000 USD: two transfers under it, the second held.
    expect(rule).toContain("two transfers of 6,000.00 USD within 24 hours");
    // The sentence the page used to say, which is not the rule.
    expect(rule).not.toMatch(/worth at least a rule's threshold is held/);
    await page.context().close();
  });

  it("shows a loosening change waiting with its approval, the fields in force, until it is approved", async () => {
    const page = await adminAt("/policies");
    const threshold = transferThreshold(page);
    await threshold.waitFor();
    await threshold.fill("12500");
    const form = page.getByRole("form", { name: "Policy" });
    await form.getByRole("button", { name: "Ask for approval" }).click();
    await poll(() => waiting(page).count(), { message: "the change shows waiting once asked" }).toBe(1);

    // Read afresh: the change still shows waiting, beside the policy in force.
    await page.reload();
    await threshold.waitFor();
    await poll(() => waiting(page).count(), { message: "the change shows waiting after a reload" }).toBe(1);
    const asked = (await d.as.admin.call("GET", "/api/approvals?status=PENDING")).body.items.find(
      (a: { kind: string }) => a.kind === "policy",
    );
    const notice = waiting(page).locator(`[data-approval-id="${asked.id}"]`);
    const words = await notice.innerText();
    expect(words).toMatch(/^Waiting for approval/);
    expect(words).toContain(
      "Approval of transfers: from 10,000.00 USD: 1 approval, open 120 min → from 12,500.00 USD: 1 approval, open 120 min",
    );
    expect(words).toContain("Requested by Avery Admin (admin@example.com)");
    expect(words).not.toContain("Asked by");
    const times = await notice.locator("time").evaluateAll((ts) => ts.map((t) => t.getAttribute("dateTime")));
    expect(times).toEqual([new Date(asked.created_at).toISOString(), new Date(asked.expires_at).toISOString()]);
    expect(await notice.getByRole("link", { name: /on Approvals/ }).getAttribute("href")).toBe("/approvals");
    expect(await threshold.inputValue()).toBe("10,000");
    expect(await page.getByTestId("policy-in-force").innerText()).toMatch(/^Policy in force/);
    await expectAccessible(page, "the Policies page with a change waiting");
    await screenshot(page, "policies-change-waiting");

    // An approver approves over HTTP: the page shows the new policy in force and nothing waiting.
    expect((await d.as.approver.call("POST", `/api/approvals/${asked.id}/approve`)).status).toBe(200);
    await poll(() => threshold.inputValue(), { message: "the approved threshold shows in force" }).toBe("12,500");
    expect(await waiting(page).count()).toBe(0);
    await page.reload();
    await threshold.waitFor();
    expect(await threshold.inputValue()).toBe("12,500");
    expect(await waiting(page).count()).toBe(0);
    await page.context().close();
  });

  it("drops a waiting change once it is rejected, the policy in force unchanged", async () => {
    const page = await adminAt("/policies");
    const guard = page.getByRole("form", { name: "Policy" }).getByLabel(/Confirm orders taking liquidity/);
    await guard.waitFor();
    const before = await guard.inputValue();
    // The stream up: the change asked elsewhere reaches this page as an `approval` event.
    await settled(page);
    const policy = (await d.as.admin.call("GET", "/api/policies")).body.policy;
    const put = await d.as.admin.call("PUT", "/api/policies", {
      ...policy,
      limits: { ...policy.limits, price_guard_percent: "7" },
    });
    expect(put.status).toBe(202);
    await poll(() => waiting(page).allInnerTexts(), { message: "another tab's change shows waiting" }).toContainEqual(
      expect.stringContaining(`Price guard: ${before}% → 7%`),
    );
    const id = put.body.approval.id as string;
    const rejected = await d.as.approver.call("POST", `/api/approvals/${id}/reject`, { reason: "Too wide" });
    expect(rejected.status).toBe(200);
    await poll(() => waiting(page).count(), { message: "the rejected change no longer shows" }).toBe(0);
    expect(await guard.inputValue()).toBe(before);
    await page.context().close();
  });
});

/** Holds every request `pattern` matches until `release` is called: the page stays loading meanwhile. */
async function holdRequests(
  page: Page,
  pattern: string,
): Promise<{ held: () => number; release: () => Promise<void> }> {
  const waiting: Route[] = [];
  let open = false;
  await page.route(pattern, (route) => (open ? route.continue() : void waiting.push(route)));
  return {
    held: () => waiting.length,
    release: async () => {
      open = true;
      await Promise.all(waiting.splice(0).map((r) => r.continue()));
      await page.unroute(pattern);
    },
  };
}

describe("loading shows the content's shape, busy and named (1280 px)", () => {
  it.each([
    {
      path: "/balances",
      api: "**/api/v2/profiles/*/balances",
      name: "Loading balances…",
      table: "Balances of Treasury",
    },
    { path: "/policies", api: "**/api/policies", name: "Loading the policy…", table: null },
  ])("$path: a skeleton while its data is held, then the content in its place", async ({ path, api, name, table }) => {
    // Signed in, nothing loaded yet: the data is held from the page's first request for it.
    const page = await keptPage(browser, { width: WIDTHS.laptop, height: 1000 });
    await signInContext(page.context(), d.url, "admin@example.com");
    const gate = await holdRequests(page, api);
    await page.goto(`${d.url}${path}`);
    await poll(gate.held, { message: "the page asked for its data" }).toBeGreaterThan(0);

    const label = page.getByText(name, { exact: true });
    await label.waitFor({ state: "attached" });
    const busy = page.locator("main [aria-busy=true]", { has: label });
    expect(await busy.count(), "the loading part is busy").toBe(1);
    // Named for a screen reader, not shown: the skeleton's shape is what the eye gets.
    expect(await label.evaluate((e) => e.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    expect(await busy.locator(".animate-pulse").count(), "a skeleton of bars").toBeGreaterThan(3);
    const room = (await busy.boundingBox())!.height;
    await screenshot(page, `loading-${path.slice(1)}`);

    await gate.release();
    if (table) await page.getByRole("table", { name: table }).waitFor();
    else await page.getByRole("form", { name: "Policy" }).waitFor();
    await poll(() => label.count(), { message: "the loading part is gone" }).toBe(0);
    expect(await page.locator("main .animate-pulse").count()).toBe(0);
    // The skeleton held most of the content's room: what follows it barely moves.
    const content = await page.locator("main").evaluate((m) => m.getBoundingClientRect().height);
    expect(room / content).toBeGreaterThan(0.5);
    await screenshot(page, `loaded-${path.slice(1)}`);
    await page.context().close();
  });
});
