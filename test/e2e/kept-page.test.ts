import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keptPage, launchBrowser } from "../support/browser";
import { sharedApp, type SharedApp } from "../support/shared-app";

/**
 * The pages a file keeps from test to test (keptPage, test/support/browser.ts): lent to one test
 * at a time, and given to the next as a new page would be, or closed when a test changed it for
 * good. The sign-in page is enough here: it sets nothing itself.
 */

const SIZE = { width: 1280, height: 800 };

let app: SharedApp;
let browser: Browser;
beforeAll(async () => {
  app = sharedApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What the first test left on its pages, for the next to look for. */
let first: Page;
let clocked: Page;
let routed: Page;
const heard: string[] = [];

describe("a kept page", () => {
  it("is lent to one test at a time: two asked for at once are two pages, each with its own cookies", async () => {
    first = await keptPage(browser, SIZE);
    clocked = await keptPage(browser, SIZE);
    expect(clocked).not.toBe(first);
    expect(clocked.context()).not.toBe(first.context());

    // All a test may leave behind that a new page would not have.
    await first.goto(`${app.url}/signin`);
    await first.evaluate(() => (localStorage.setItem("left", "1"), sessionStorage.setItem("left", "1")));
    await first.context().addCookies([{ name: "left", value: "1", url: app.url }]);
    expect(await clocked.context().cookies(), "the other page's cookies are its own").toEqual([]);
    first.on("console", (m) => heard.push(m.text()));
    await first.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
    await first.setViewportSize({ width: 390, height: 844 });
    // A clock cannot be taken off a page again, and a route may hold requests: such a page is not kept.
    await clocked.clock.install();
    routed = await keptPage(browser, SIZE);
    await routed.route("**/nowhere", (route) => route.fulfill({ body: "routed" }));
  });

  it("is given to the next test of its size as a new page would be; one given a clock or a route is closed", async () => {
    const page = await keptPage(browser, SIZE);
    expect(page, "the first test's page, kept").toBe(first);
    expect(clocked.isClosed(), "the page given a clock").toBe(true);
    expect(routed.isClosed(), "the page given a route").toBe(true);
    expect(page.url()).toBe("about:blank");
    expect(page.viewportSize()).toEqual(SIZE);
    expect(await page.context().cookies()).toEqual([]);

    await page.goto(`${app.url}/signin`);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(false);
    expect(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches)).toBe(false);
    await page.evaluate(() => console.log("after"));
    expect(heard, "the first test's listener is gone").toEqual([]);

    // Another size is another page; closing a kept page gives it back, open, for the next to ask.
    expect(await keptPage(browser, { width: 390, height: 844 })).not.toBe(page);
    await page.close();
    expect(page.isClosed()).toBe(false);
    expect(await keptPage(browser, SIZE)).toBe(page);
  });
});
