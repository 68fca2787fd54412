import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  afterNextFrames,
  expectAccessible,
  keptPage,
  launchBrowser,
  poll,
  screenshot,
  settled,
  signInAs,
  WIDTHS,
} from "../support/browser";
import { resetApp } from "../support/shared-app";

/**
 * Dark mode chosen in the header, remembered and rendered by the server; the chart redrawn in
 * the theme's colours; the shell's keyboard shortcuts; and its links, which prefetch on intent.
 * The market maker quotes, so the orders page's chart has something to draw. (Every page following a dark system, and light
 * chosen against one, each scanned by axe, is checked in the visit of each page: visits.test.ts.)
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

/** The page's background, surface-sunken in app/globals.css. */
const LIGHT_BACKGROUND = "rgb(241, 245, 249)";
const DARK_BACKGROUND = "rgb(2, 6, 23)";
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const htmlClass = (page: Page) => page.evaluate(() => document.documentElement.className);

describe("dark mode", () => {
  it("is chosen in the header, remembered, and rendered by the server before any script runs", async () => {
    const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    await signInAs(page, app.url, "admin@example.com");
    const theme = page.getByRole("group", { name: "Theme" });
    expect(await theme.getByRole("button", { name: "System" }).getAttribute("aria-pressed")).toBe("true");
    await theme.getByRole("button", { name: "Dark" }).click();
    expect(await htmlClass(page)).toBe("dark");
    expect(await background(page)).toBe(DARK_BACKGROUND);
    expect(await page.evaluate(() => localStorage.getItem("dashboard.theme"))).toBe("dark");

    // The server's own HTML already says dark: no light flash before hydration.
    const response = await page.goto(`${app.url}/transfers`);
    expect(await response!.text()).toMatch(/<html lang="en" class="dark"/);
    expect(await theme.getByRole("button", { name: "Dark" }).getAttribute("aria-pressed")).toBe("true");
    // Remembered on the next page too.
    await page.goto(`${app.url}/balances`);
    expect(await background(page)).toBe(DARK_BACKGROUND);

    // Light, chosen against a dark system.
    await page.emulateMedia({ colorScheme: "dark" });
    await theme.getByRole("button", { name: "Light" }).click();
    expect(await htmlClass(page)).toBe("light");
    expect(await background(page)).toBe(LIGHT_BACKGROUND);
    // Back to the system's: dark again.
    await theme.getByRole("button", { name: "System" }).click();
    expect(await htmlClass(page)).toBe("");
    expect(await background(page)).toBe(DARK_BACKGROUND);
    await page.close();
  });

  it("redraws the price chart in the theme's colours", async () => {
    const page = await keptPage(browser, { width: WIDTHS.desk, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    await signInAs(page, app.url, "trader@example.com");
    const chart = page.getByTestId("price-chart");
    await expect.poll(() => chart.locator("canvas").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The colour handed to the chart library for its text: ink-muted of each theme.
    await expect.poll(() => chart.getAttribute("data-text-colour")).toBe("rgb(71, 85, 105)");
    const pixels = await chart.evaluate((el) => [...el.querySelectorAll("canvas")].map((c) => c.toDataURL()).join());
    await page.getByRole("group", { name: "Theme" }).getByRole("button", { name: "Dark" }).click();
    await expect.poll(() => chart.getAttribute("data-text-colour")).toBe("rgb(148, 163, 184)");
    expect(await chart.evaluate((el) => [...el.querySelectorAll("canvas")].map((c) => c.toDataURL()).join())).not.toBe(
      pixels,
    );
    await page.close();
  });
});

describe("motion", () => {
  it("pulses and eases only for those who allow motion (prefers-reduced-motion)", async () => {
    const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
    await page.goto(`${app.url}/signin`);
    /** How a skeleton's pulse repeats and how long a button's colours ease, on the page's own stylesheet. */
    const motion = () =>
      page.evaluate(() => {
        const bar = document.createElement("div");
        bar.className = "animate-pulse transition-colors";
        document.body.append(bar);
        const style = getComputedStyle(bar);
        const seen = { repeats: style.animationIterationCount, eases: style.transitionDuration };
        bar.remove();
        return seen;
      });
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await motion()).toEqual({ repeats: "infinite", eases: "0.15s" });
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await motion()).toEqual({ repeats: "1", eases: "1e-05s" });
    await page.close();
  });
});

describe("keyboard shortcuts", () => {
  async function ordersPage(): Promise<Page> {
    const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
    // Returns once the shell has hydrated: its shortcuts listen and its ? button answers.
    await signInAs(page, app.url, "trader@example.com");
    return page;
  }
  const dialog = (page: Page) => page.getByRole("dialog", { name: "Keyboard shortcuts" });
  const focusInside = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest("dialog[open]")));

  it('"?" lists the shortcuts in a modal dialog that keeps focus and gives it back on Esc', async () => {
    const page = await ordersPage();
    const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Balances" });
    await link.focus();
    await page.keyboard.press("?");
    await dialog(page).waitFor(); // the list's code arrives on first use
    expect(await dialog(page).getAttribute("aria-modal")).toBe("true");
    for (const words of ["Buy side", "Sell side", "table's filter", "Show this list", "Close this list"]) {
      expect(await dialog(page).getByText(words).count(), words).toBe(1);
    }
    expect(await focusInside(page)).toBe(true);
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("Tab");
      expect(await focusInside(page), `after ${i + 1} Tab`).toBe(true);
    }
    await page.keyboard.press("Shift+Tab");
    expect(await focusInside(page)).toBe(true);
    await expectAccessible(page, "the shortcuts dialog");
    await screenshot(page, "shortcuts-dialog");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await link.evaluate((el) => el === document.activeElement), "focus back on the link").toBe(true);
    await page.close();
  });

  it("opens from the header's ? button too, and Close gives focus back to it", async () => {
    const page = await ordersPage();
    const button = page.getByRole("button", { name: "Keyboard shortcuts" });
    await button.click();
    await dialog(page).getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.close();
  });

  it("leaves a ? typed into a field, or pressed with Ctrl, alone", async () => {
    const page = await ordersPage();
    const price = page.getByLabel("Price (USD)", { exact: true });
    await price.focus();
    await page.keyboard.type("?/");
    expect(await price.inputValue()).toBe("?/");
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("Control+?");
    await afterNextFrames(page);
    expect(await dialog(page).count()).toBe(0);
    await page.close();
  });

  it('"/" focuses the table filter, without typing the slash into it', async () => {
    const page = await ordersPage();
    // The orders table (a chunk of its own) marks its filter with data-table-filter: wait for it.
    await expect.poll(() => page.locator("[data-table-filter]").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const filter = page.locator("[data-table-filter]").first();
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("/");
    expect(await filter.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await filter.evaluate((el) => (el as HTMLInputElement).value ?? "")).toBe("");
    await page.close();
  });
});

describe("the header's links", () => {
  it("prefetch no page on load, the one pointed at or focused, and open it in place", async () => {
    const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
    // From the load on: the pages Next prefetched (its `_rsc` requests), and the documents loaded.
    const prefetched = new Set<string>();
    const documents: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.searchParams.has("_rsc")) prefetched.add(url.pathname);
      if (r.resourceType() === "document") documents.push(url.pathname);
    });
    await signInAs(page, app.url, "trader@example.com");
    await settled(page);
    const nav = page.getByRole("navigation", { name: "Main" });

    await nav.getByRole("link", { name: "Balances" }).hover();
    await poll(() => [...prefetched], { message: "pointing at Balances prefetches it, and only it" }).toEqual([
      "/balances",
    ]);
    await nav.getByRole("link", { name: "Activity" }).focus();
    await poll(() => [...prefetched].sort(), { message: "focusing Activity prefetches it too" }).toEqual([
      "/activity",
      "/balances",
    ]);

    await nav.getByRole("link", { name: "Balances" }).click();
    await page.waitForURL(/\/balances$/);
    await page.getByRole("heading", { name: "Balances", level: 1 }).waitFor();
    expect(documents, "opened in place: one document, the sign-in's /orders").toEqual(["/orders"]);
    await page.close();
  });
});
