import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser";
import { startDevServer, type DevServer } from "../support/dev-server";

// `next dev` compiles each page on its first visit; on a 2-core machine that takes a while.
const DEV_TIMEOUT_MS = 120_000;

let dev: DevServer;
let browser: Browser;
beforeAll(async () => {
  // Its own server, not the shared one: next dev, not the build.
  [dev, browser] = await Promise.all([startDevServer(), launchBrowser()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await dev?.dispose();
});

/** True once React has hydrated the element (it attaches its props to the DOM node). */
const hydrated = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps$")))
    .catch(() => false);

describe("the dev server opened at 127.0.0.1 (npm run dev)", () => {
  it("hydrates the sign-in page, signs the trader in and shows the dashboard", { timeout: 300_000 }, async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(DEV_TIMEOUT_MS);
    await page.goto(`${dev.url}/signin`);
    // Once the page has loaded, hydration follows at once, unless Next refused the page's
    // origin its dev resources (it then logs "Blocked cross-origin request ...").
    await expect
      .poll(() => hydrated(page, "form"), { timeout: 60_000, interval: 500 })
      .toBe(true)
      .catch(() => {
        const blocked = dev.log().match(/Blocked cross-origin request[^\n]*/g) ?? [];
        throw new Error(`the sign-in page at ${dev.url} never hydrated. ${blocked.join("; ")}`);
      });

    await page.getByLabel("Email").fill("trader@example.com");
    await page.getByLabel("Password").fill("demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/orders$/);
    await expect.poll(() => page.getByTestId("role").textContent(), { timeout: DEV_TIMEOUT_MS }).toBe("trader");
    await expect
      .poll(() => page.getByRole("form", { name: "Order ticket" }).count(), { timeout: DEV_TIMEOUT_MS })
      .toBe(1);
    await page.close();
  });

  it("prints readable log lines, one per request, not JSON", () => {
    expect(dev.log()).toMatch(/INFO: GET \/signin 200 /);
    expect(dev.log()).not.toMatch(/^\{"level"/m);
  });
});
