import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSidewaysScroll, LAYOUT_WIDTHS, launchBrowser, screenshot, signInAs } from "../support/browser";
import { resetApp } from "../support/shared-app";

/**
 * The order ticket's page does not move as its parts arrive after the first paint (the ticket's
 * script, the market view, the chart, the orders table): every layout shift the browser reports
 * from the page's load until the last placeholder is replaced, summed, stays under 0.05 (a
 * "good" Cumulative Layout Shift is under 0.1). The market maker quotes, so the ladder fills.
 */

/** What the page's own script records of its layout shifts, from the start of the document. */
const RECORD_SHIFTS = `
  window.__shifts = [];
  window.__shiftObserver = new PerformanceObserver((list) => window.__shifts.push(...list.getEntries()));
  window.__shiftObserver.observe({ type: "layout-shift", buffered: true });
`;
const SHIFT_LIMIT = 0.05;

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

/** The shifts not caused by the person (none here: nothing is touched), what moved, and the sum. */
async function shiftsSoFar(page: Page): Promise<{ sum: number; moved: string[] }> {
  return page.evaluate(async () => {
    const w = window as unknown as {
      __shifts: (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node }[] })[];
      __shiftObserver: PerformanceObserver;
    };
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    w.__shifts.push(...(w.__shiftObserver.takeRecords() as typeof w.__shifts));
    const counted = w.__shifts.filter((s) => !s.hadRecentInput);
    return {
      sum: counted.reduce((total, s) => total + s.value, 0),
      moved: counted.map(
        (s) =>
          `${s.value.toFixed(4)} ${s.sources
            .map((x) => (x.node as HTMLElement | undefined)?.outerHTML?.slice(0, 80) ?? "?")
            .join(" | ")}`,
      ),
    };
  });
}

describe("layout shift of /orders", () => {
  for (const [name, width] of LAYOUT_WIDTHS) {
    it(`${name} (${width} px): under ${SHIFT_LIMIT} from the first paint until every part has arrived`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      // Recorded from the first paint of the page signing in opens (/orders).
      await page.addInitScript({ content: RECORD_SHIFTS });
      await signInAs(page, app.url, "trader@example.com");

      const ticket = page.getByRole("form", { name: "Order ticket" });
      await expect
        .poll(() => ticket.getByLabel("Profile", { exact: true }).locator("option").count())
        .toBeGreaterThan(1);
      const ladder = page.getByTestId("depth-ladder");
      await expect.poll(() => ladder.locator("tr[data-side='bid']").count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await expect.poll(() => page.getByTestId("price-chart").locator("canvas").count()).toBeGreaterThan(0);
      // Every placeholder (the market view's, the chart's, the table's rows) has been replaced.
      await expect.poll(() => page.locator("main div.animate-pulse").count(), { timeout: 15_000 }).toBe(0);

      const { sum, moved } = await shiftsSoFar(page);
      console.info(`layout shift of /orders at ${width} px: ${sum.toFixed(4)}`);
      expect(sum, `what moved:\n${moved.join("\n")}`).toBeLessThan(SHIFT_LIMIT);

      // The market view fits the room kept for it: a taller view would spill over the table.
      const view = await page.locator("#market-view > section").evaluate((card) => ({
        content: card.scrollHeight,
        room: card.parentElement!.clientHeight,
      }));
      expect(view.content).toBeLessThanOrEqual(view.room);
      await screenshot(page, `light-orders-${width}`);
      await page.close();
    });
  }
});

/**
 * Every other page, as an admin (who sees them all): from the first paint until its last
 * placeholder and "Loading…" are replaced and its own parts are in, under the same limit. Once
 * in, the page does not scroll sideways, and its screenshot (light) is kept for a person to look
 * at; the dark theme's are taken in theme-and-shortcuts and desk-format.
 */
const PAGES: { path: string; ready?: (page: Page) => Promise<unknown> }[] = [
  { path: "/transfers" },
  { path: "/approvals" },
  { path: "/policies", ready: (page) => page.getByRole("form", { name: "Policy" }).waitFor() },
  { path: "/activity" },
  {
    path: "/balances",
    ready: (page) =>
      expect.poll(() => page.getByTestId("usd-total").textContent(), { timeout: 15_000 }).not.toContain("…"),
  },
  { path: "/sessions", ready: (page) => page.locator("[data-row]").first().waitFor() },
  { path: "/activity?view=audit", ready: (page) => page.getByRole("table", { name: /Audit trail/ }).waitFor() },
];

/** An admin's page at each width, kept for the file; its recorder starts again at each load. */
const adminPages = new Map<number, Promise<Page>>();
function adminPage(width: number, height: number): Promise<Page> {
  if (!adminPages.has(width)) {
    adminPages.set(
      width,
      (async () => {
        const page = await browser.newPage({ viewport: { width, height } });
        await page.addInitScript({ content: RECORD_SHIFTS });
        await signInAs(page, app.url, "admin@example.com");
        return page;
      })(),
    );
  }
  return adminPages.get(width)!;
}

describe("layout shift of every page", () => {
  for (const { path, ready } of PAGES) {
    for (const [name, width] of LAYOUT_WIDTHS) {
      it(`${path} at ${width} px: under ${SHIFT_LIMIT} until every part has arrived`, async () => {
        const page = await adminPage(width, name === "phone" ? 844 : 800);
        // Recorded from the first paint of this load.
        await page.goto(`${app.url}${path}`);
        await ready?.(page);
        await expect.poll(() => page.locator("main .animate-pulse").count(), { timeout: 15_000 }).toBe(0);
        await expect.poll(() => page.locator("main").innerText(), { timeout: 15_000 }).not.toMatch(/Loading/);

        const { sum, moved } = await shiftsSoFar(page);
        console.info(`layout shift of ${path} at ${width} px: ${sum.toFixed(4)}`);
        expect(sum, `what moved:\n${moved.join("\n")}`).toBeLessThan(SHIFT_LIMIT);
        await expectNoSidewaysScroll(page, `${path} at ${width} px`);
        await screenshot(page, `light-${path.slice(1).replace(/\W+/g, "-")}-${width}`);
      });
    }
  }
});
