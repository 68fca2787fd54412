import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, settled, signInWithForm, WIDTHS } from "../support/browser";
import { resetApp } from "../support/shared-app";

/**
 * The built app's pages hydrate without a mismatch: the server's HTML is what the browser's
 * first render draws. A mismatch makes React throw the page away and draw it again (minified
 * React error #418 in a production build), losing a keystroke or a click made meanwhile.
 * Production only: the timing that lets a lazily loaded table find data the server never had
 * (the ticket's profiles) is the built app's.
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

const VISITS: Record<string, string[]> = {
  "trader@example.com": ["/orders", "/transfers", "/balances"],
  "ops@example.com": ["/transfers", "/orders", "/activity"],
  "viewer@example.com": ["/orders", "/transfers"],
  "approver@example.com": ["/approvals", "/orders"],
  "admin@example.com": ["/orders", "/transfers", "/activity?view=audit", "/approvals", "/policies", "/sessions"],
};

describe("hydration", () => {
  for (const [email, paths] of Object.entries(VISITS)) {
    it(`${email}: ${paths.join(", ")} hydrate without an error`, async () => {
      const page = await browser.newPage({ viewport: { width: WIDTHS.laptop, height: 900 } });
      const errors: string[] = [];
      let at = "/signin";
      page.on("pageerror", (e) => errors.push(`${at}: ${e.message.slice(0, 300)}`));
      await signInWithForm(page, app.url, email);
      for (const path of paths) {
        at = path;
        await page.goto(`${app.url}${path}`);
        // Until the page's queries have answered and its lazily loaded parts (the stream's among them) have hydrated.
        await settled(page);
      }
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
