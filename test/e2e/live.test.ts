import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signInAs } from "../support/browser";
import { newRef, smallOrder, TRADING } from "../support/dashboard";
import { sharedApp } from "../support/shared-app";

/**
 * Two browsers on the desk: an order placed in one appears in the other's orders table without
 * a reload, pushed by GET /api/events rather than found by polling (the tables poll every 15 s
 * when nothing is live, and not at all while the stream is up).
 */

let app: { url: string };
let browser: Browser;
beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts): the market maker quotes there.
  app = sharedApp();
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
  it("shows an order placed in one browser in the other's orders table within two seconds", async () => {
    const [trader, viewer] = await Promise.all([pageAs("trader@example.com"), pageAs("viewer@example.com")]);
    const status = viewer.getByTestId("live-status");
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 10_000 }).toBe("up");

    const placed = await trader.evaluate(
      async ({ profile, body }) => {
        const res = await fetch(`/api/v2/profiles/${profile}/orders`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, id: ((await res.json()) as { id: string }).id, at: Date.now() };
      },
      { profile: TRADING, body: smallOrder(newRef("e2e-live")) },
    );
    expect(placed.status).toBe(200);
    const row = viewer.locator(`tr[data-row="${placed.id}"]`);
    await row.waitFor({ state: "attached", timeout: 2_000 });
    expect(Date.now() - placed.at).toBeLessThan(2_500);
  });

  it("says Reconnecting and polls while the stream is down (ticker, approvals), and stops polling once it is up", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
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
    await new Promise((r) => setTimeout(r, 6_000));
    expect(since(down)).toBeGreaterThanOrEqual(2);
    expect(since(down, "approvals")).toBeGreaterThanOrEqual(1);

    blocked = false;
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 15_000 }).toBe("up");
    expect(await status.textContent()).not.toContain("Reconnecting");
    await new Promise((r) => setTimeout(r, 2_500));
    const up = Date.now();
    await new Promise((r) => setTimeout(r, 6_000));
    expect(since(up)).toBe(0);
    expect(since(up, "approvals")).toBe(0);
    await context.close();
  });
});
