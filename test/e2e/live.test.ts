import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, poll, settled, signInAs } from "../support/browser";
import { newRef, smallOrder, TRADING } from "../support/dashboard";
import { resetApp } from "../support/shared-app";

/**
 * Two browsers on the desk: an order placed in one appears in the other's orders table without
 * a reload, pushed by GET /api/events rather than found by polling (the tables poll every 15 s
 * when nothing is live, and not at all while the stream is up).
 */

let app: { url: string };
let browser: Browser;
beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts): the market maker quotes there.
  app = await resetApp({ SANDBOX_MARKET_MAKER: "on" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function pageAs(email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, app.url, email);
  return page;
}

describe("live updates in two browsers", () => {
  it("shows an order placed in one browser in the other's orders table, pushed while its stream is up", async () => {
    const [trader, viewer] = await Promise.all([pageAs("trader@example.com"), pageAs("viewer@example.com")]);
    const status = viewer.getByTestId("live-status");
    // What the viewer's page asked for and got, for the message should the row not come.
    const seen: string[] = [];
    viewer.on("response", (r) => {
      const path = new URL(r.url()).pathname;
      if (path === "/api/events" || path === "/api/orders") seen.push(`${path} ${r.status()}`);
    });
    viewer.on("requestfailed", (r) => seen.push(`${new URL(r.url()).pathname} failed: ${r.failure()?.errorText}`));
    // The viewer's screen has its stream and its table read: the row can then only come pushed.
    await settled(viewer);

    const placed = await trader.evaluate(
      async ({ profile, body }) => {
        const res = await fetch(`/api/v2/profiles/${profile}/orders`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, id: ((await res.json()) as { id: string }).id };
      },
      { profile: TRADING, body: smallOrder(newRef("e2e-live")) },
    );
    expect(placed.status).toBe(200);
    // While the stream is up the table does not poll: the row can only come pushed. How fast is
    // bench:push's figure (test/bench/push.ts), not a threshold here.
    const row = viewer.locator(`tr[data-row="${placed.id}"]`);
    const marker = seen.length;
    await row.waitFor({ state: "attached", timeout: 15_000 }).catch(async (error: Error) => {
      const now = `${await status.getAttribute("data-status")} ${await status.getAttribute("data-fetching")}`;
      throw new Error(
        `${error.message}\nlive status now: ${now}; before the create: ${seen.slice(0, marker).join(", ")}; after: ${seen.slice(marker).join(", ")}`,
      );
    });
    expect(await status.getAttribute("data-status"), "the stream stayed up").toBe("up");
  });

  it("says Reconnecting and polls while the stream is down (ticker, approvals), and stops polling once it is up", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    // The page's timers run on Playwright's clock: the polls' intervals are moved past, not waited for.
    await page.clock.install();
    let blocked = true;
    await page.route("**/api/events**", (route) => (blocked ? route.abort() : route.continue()));
    // The ticker (streamed) and the approvals feed (read again on each approval event).
    const reads = { ticker: [] as number[], approvals: [] as number[] };
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (/^\/api\/v2\/markets\/[^/]+\/ticker$/.test(path)) reads.ticker.push(Date.now());
      if (path === "/api/approvals") reads.approvals.push(Date.now());
    });
    const since = (t: number, of: keyof typeof reads = "ticker") => reads[of].filter((at) => at >= t).length;
    await signInAs(page, app.url, "trader@example.com");
    const status = page.getByTestId("live-status");

    await expect.poll(() => status.getAttribute("data-status"), { timeout: 10_000 }).toBe("down");
    expect(await status.textContent()).toContain("Reconnecting");
    const down = Date.now();
    // Two of the polls' 5 s intervals: the ticker is read again each time, the approvals too.
    for (let i = 0; i < 2; i++) await page.clock.runFor(6_000);
    await poll(() => since(down)).toBeGreaterThanOrEqual(2);
    await poll(() => since(down, "approvals")).toBeGreaterThanOrEqual(1);

    blocked = false;
    await page.clock.runFor(6_000); // EventSource's own retry is the browser's; the page's reopen timer is not
    await poll(() => status.getAttribute("data-status")).toBe("up");
    expect(await status.textContent()).not.toContain("Reconnecting");
    // Once up, the screen is read again once (events missed while down); after that, nothing polls.
    await settled(page);
    const up = Date.now();
    for (let i = 0; i < 2; i++) await page.clock.runFor(6_000);
    await settled(page);
    expect(since(up)).toBe(0);
    expect(since(up, "approvals")).toBe(0);
    await context.close();
  });
});
