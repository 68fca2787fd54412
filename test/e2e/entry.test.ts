import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "@/lib/shared/format";
import {
  armed,
  expectAccessible,
  expectNoSidewaysScroll,
  launchBrowser,
  LAYOUT_WIDTHS,
  openFromNav,
  poll,
  screenshot,
  signedIn as signedInPage,
  signInAs,
  watchWrites,
  WIDTHS,
} from "../support/browser";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * Entry that can't be rushed (issue 9), in a browser: the review takes a deliberate act at each
 * width (the page's clock held while keys land), a repeat is asked about and journaled, a
 * shortfall is stopped before the review, a GTT expiry that comes near while the review is open
 * sends nothing, and the result follows its record. "Nothing sent" is read off the requests the
 * page makes. What a form shows alone (the transfer form's Enter, Enter; what a send clears; a
 * refusal's words; the retry; B and S) is the components project's (test/components/entry.test.tsx).
 */

/**
 * How long the service leaves a transfer PENDING: longer than any test takes, so PENDING is seen
 * for certain; the runtime's clock is moved past it when COMPLETED is wanted.
 */
const TRANSFER_SETTLE_MS = 60_000;

let app: SharedApp;
let browser: Browser;
beforeAll(async () => {
  // The market maker quotes and trades, so market orders fill and there is a last trade.
  [app, browser] = await Promise.all([
    resetApp({ SANDBOX_MARKET_MAKER: "on", SANDBOX_TRANSFER_SETTLE_MS: String(TRANSFER_SETTLE_MS) }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
});

const SIZES = LAYOUT_WIDTHS;
/**
 * Where only the form's own words are asserted (the repeat question, a field's error), the
 * laptop: those are the same markup at each width, and the ticket's phone layout is tried by
 * the keyboard journey and the transfer result.
 */
const LAPTOP_ONLY = LAYOUT_WIDTHS.filter(([size]) => size === "laptop");
/** An amount of each width's own, so that one width's order is no repeat of another's. */
const OWN: Record<keyof typeof WIDTHS, string> = { desk: "0.0144", laptop: "0.0128", phone: "0.0039" };
const signedIn = (email: string, width: number = WIDTHS.desk) => signedInPage(browser, app.url, email, width);

async function tradingTicket(page: Page): Promise<Locator> {
  const ticket = page.getByRole("form", { name: "Order ticket" });
  await poll(() => ticket.getByLabel("Profile", { exact: true }).locator("option").count(), {
    timeout: 15_000,
  }).toBeGreaterThan(1);
  await ticket.getByLabel("Profile", { exact: true }).selectOption({ label: "Trading" });
  return ticket;
}

async function transferForm(page: Page): Promise<Locator> {
  await openFromNav(page, "Transfers");
  await page.waitForURL(/\/transfers$/);
  const form = page.getByRole("form", { name: "Internal transfer" });
  await poll(() => form.getByLabel("From profile").locator("option").count(), { timeout: 15_000 }).toBeGreaterThan(1);
  return form;
}

const field = (form: Locator, name: string) => form.getByLabel(name, { exact: true });
const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));
/** The label of the focused field. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const id = document.activeElement?.id;
    return (id && document.querySelector(`label[for="${id}"]`)?.textContent) || "";
  });
const orderPosts = (writes: string[]) => writes.filter((w) => /^POST .*\/orders$/.test(w));
/** The journal's entries for one ref_id, read with the page's own session. */
async function journal(page: Page, refId: string) {
  const res = await page.request.get(`${app.url}/api/activity?ref_ids=${encodeURIComponent(refId)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: { status: string; duplicate_of: string | null }[] }).items;
}
const reviewRefId = async (form: Locator) =>
  (await form
    .getByTestId("review")
    .locator("dt", { hasText: "ref_id" })
    .locator("xpath=following-sibling::dd")
    .textContent())!;

/**
 * Holds the page's (installed, flowing) clock 50 ms from its now. On a busy machine that moment
 * can pass before the call lands ("Cannot fast-forward to the past"): then it asks again.
 */
async function pauseSoon(page: Page): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 50);
    } catch (error) {
      if (tries === 10 || !String(error).includes("fast-forward to the past")) throw error;
    }
  }
}

/** The runtime's time (the service's clock: a GTT expiry is judged against it), moved on by earlier tests. */
const serverNow = async () => Date.parse((await app.control.state()).now);

/** What a datetime-local input holds for a moment `msFromNow` ahead, in the browser's time zone. */
const localInputValue = (page: Page, msFromNow: number) =>
  page.evaluate((ms) => {
    const d = new Date(Date.now() + ms);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }, msFromNow);

describe("Enter twice does not skip the review", () => {
  it.each(SIZES)(
    "order ticket at %s width (%i px): Enter, Enter; Enter ×3; Enter+Space; an early Confirm",
    async (size, width) => {
      // The page's timers run on Playwright's clock, so the review's pause can be held while keys land in it.
      const page = await browser.newPage({ viewport: { width, height: 1000 } });
      await page.clock.install();
      await signInAs(page, app.url, "trader@example.com");
      const ticket = await tradingTicket(page);
      const writes = watchWrites(page);
      await field(ticket, "Price (USD)").fill("30000.00");
      const amount = OWN[size];
      await field(ticket, "Base amount (BTC)").fill(amount);
      const review = ticket.getByTestId("review");
      const edit = async () => {
        await ticket.getByRole("button", { name: "Edit" }).click();
        await field(ticket, "Base amount (BTC)").focus();
      };

      const confirm = ticket.getByRole("button", { name: "Confirm and send" });
      // The second key lands on the review just opened; once Confirm is armed (REVIEW_ARMING_MS
      // passed), a key that had sent would have shown as a request.
      await field(ticket, "Base amount (BTC)").focus();
      await page.keyboard.press("Enter");
      await review.waitFor();
      await page.keyboard.press("Enter");
      await armed(confirm);
      expect(writes.writes(), "Enter, Enter sends nothing").toEqual([]);
      expect(await focusedTestId(page), "focus on the review's text, not on Confirm").toBe("review");
      expect(await ticket.getByTestId("order-review").textContent()).toContain(`Buy ${amount} BTC at 30,000.00 USD`);
      await screenshot(page, `entry-review-${size}`);
      await expectNoSidewaysScroll(page, `the review at ${width} px`);

      await edit();
      await page.keyboard.press("Enter");
      await review.waitFor();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      await armed(confirm);
      expect(writes.writes(), "Enter, Enter, Enter sends nothing").toEqual([]);

      await edit();
      await page.keyboard.press("Enter");
      await review.waitFor();
      await page.keyboard.press(" ");
      await armed(confirm);
      expect(writes.writes(), "Enter then Space sends nothing").toEqual([]);

      // Someone who reaches Confirm at once (Tab, a click) before the pause ends sends nothing either:
      // the page's clock is held while they try, so the pause cannot run out under a slow machine.
      await edit();
      await pauseSoon(page);
      await page.keyboard.press("Enter");
      await confirm.waitFor();
      expect(await confirm.getAttribute("data-armed"), "still in its pause").toBe("false");
      await confirm.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press(" ");
      await confirm.click({ force: true });
      await page.clock.resume();
      await armed(confirm);
      expect(writes.writes(), "an early Confirm sends nothing").toEqual([]);

      // After the pause, Confirm sends: once.
      await confirm.click();
      await ticket.getByTestId("order-result").waitFor();
      expect(orderPosts(writes.writes())).toHaveLength(1);
      await page.close();
    },
  );
});

describe("the same order again within a minute asks first", () => {
  it.each(LAPTOP_ONLY)(
    "at %s width (%i px): asks, 'Don't send' journals the answer, 'Send another' sends it",
    async (size, width) => {
      const page = await signedIn("trader@example.com", width);
      const ticket = await tradingTicket(page);
      const writes = watchWrites(page);
      const amount = `${OWN[size]}1`;
      // A bid far below the market is worth its amount at the mid (about 1,000 USD): under the
      // order approval rule (100,000 USD), so it is sent.
      await field(ticket, "Price (USD)").fill("3100.00");
      const review = async () => {
        await field(ticket, "Base amount (BTC)").fill(amount);
        await ticket.getByRole("button", { name: "Review order" }).click();
        const ref = await reviewRefId(ticket);
        await ticket.getByRole("button", { name: "Confirm and send" }).click();
        return ref;
      };
      const first = await review();
      await ticket.getByTestId("order-result").waitFor();

      const declinedRef = await review();
      const question = ticket.getByTestId("repeat-question");
      await question.waitFor();
      expect(await question.textContent()).toMatch(/^You sent this \d+ s ago\. Send another\?$/);
      expect(await focusedTestId(page), "the question is read first").toBe("review");
      await screenshot(page, `entry-repeat-question-${size}`);
      await expectNoSidewaysScroll(page, `the question at ${width} px`);
      await expectAccessible(page, `the repeat question at ${width} px`);
      await ticket.getByRole("button", { name: "Don't send" }).click();
      await poll(() => ticket.getByTestId("review").count()).toBe(0);
      await poll(() => page.getByTestId("toast").filter({ hasText: "Not sent" }).count()).toBe(1);
      await poll(() => journal(page, declinedRef)).toEqual([
        expect.objectContaining({ status: "declined", duplicate_of: first }),
      ]);

      const sentRef = await review();
      await question.waitFor();
      await ticket.getByRole("button", { name: "Send another" }).click();
      await ticket.getByTestId("order-result").waitFor();
      expect(await journal(page, sentRef)).toEqual([
        expect.objectContaining({ status: "succeeded", duplicate_of: first }),
      ]);
      // Posted: the first, the repeat answered "don't send", the repeat asked about again, and "send another".
      expect(orderPosts(writes.writes())).toHaveLength(4);
      await page.close();
    },
  );
});

describe("a shortfall is stopped on its field before the review", () => {
  it.each(LAPTOP_ONLY)(
    "at %s width (%i px): a sell for more than the profile has, a transfer for more than it holds",
    async (size, width) => {
      const page = await signedIn("admin@example.com", width);
      const ticket = await tradingTicket(page);
      const writes = watchWrites(page);
      await ticket.getByText("Sell", { exact: true }).click();
      await field(ticket, "Price (USD)").fill("60000.00");
      await field(ticket, "Base amount (BTC)").fill("5000");
      // The balances arrive a moment after the profile is chosen.
      await poll(async () => {
        await ticket.getByRole("button", { name: "Review order" }).click();
        return ticket.getByText(/^Sell 5,000 BTC: Trading has [\d,.]+ BTC available$/).count();
      }).toBe(1);
      expect(await field(ticket, "Base amount (BTC)").getAttribute("aria-invalid")).toBe("true");
      expect(await ticket.getByTestId("review").count()).toBe(0);
      await screenshot(page, `entry-funds-ticket-${size}`);
      await expectNoSidewaysScroll(page, `the ticket's funds error at ${width} px`);

      const form = await transferForm(page);
      await form.getByLabel("From profile").selectOption({ label: "Operations reserve" });
      await form.getByLabel("To profile").selectOption({ label: "Settlement" });
      await form.getByLabel("Asset").selectOption("BTC");
      await field(form, "Amount").fill("2.5");
      await poll(async () => {
        await form.getByRole("button", { name: "Review transfer" }).click();
        return form.getByText("Move 2.5 BTC: Operations reserve has 2 BTC available").count();
      }).toBe(1);
      await screenshot(page, `entry-funds-transfer-${size}`);
      await expectNoSidewaysScroll(page, `the transfer's funds error at ${width} px`);
      expect(writes.writes()).toEqual([]);
      await page.close();
    },
  );
});

describe("an expiry that comes near while the review is open", () => {
  it("sends nothing when a GTT expiry comes within 10 s while the review is open, and goes back to the expiry", async () => {
    // The page's clock is Playwright's: it runs as the real one, and is moved on instead of waited for.
    const page = await browser.newPage({ viewport: { width: WIDTHS.desk, height: 1000 } });
    await page.clock.install();
    await signInAs(page, app.url, "trader@example.com");
    const ticket = await tradingTicket(page);
    const writes = watchWrites(page);
    await field(ticket, "Price (USD)").fill("30000.00");
    await field(ticket, "Base amount (BTC)").fill("0.0137");
    await field(ticket, "Time in force").selectOption("GTT");
    const expiresAt = Date.now() + 20_000;
    await field(ticket, "Expires (your local time)").fill(await localInputValue(page, expiresAt - Date.now()));
    const hint = await ticket.getByText(/UTC · /).textContent();
    expect(hint, "the expiry in UTC and local time").toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT/,
    );
    await ticket.getByRole("button", { name: "Review order" }).click();
    const details = await ticket.getByTestId("review").locator("dl").textContent();
    expect(details, "the 13 digits sent stay in the review's details").toMatch(/expiration_date\d{13}/);
    expect(await ticket.getByTestId("order-review").textContent()).toMatch(
      /good till \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
    );
    // The review stays open until the expiry is less than 10 s away: the page's clock is moved there.
    await page.clock.fastForward(Math.max(0, expiresAt - 9_000 - Date.now()));
    await ticket.getByRole("button", { name: "Confirm and send" }).click();
    await poll(() => ticket.getByTestId("review").count()).toBe(0);
    expect(await ticket.getByText(/The expiry passed, or is now less than 10 seconds away/).count()).toBe(1);
    await poll(() => focusedLabel(page)).toBe("Expires (your local time)");
    expect(writes.writes()).toEqual([]);
    await page.close();
  });
});

describe("the ticket's warnings", () => {
  it("warns, without blocking, when a sell stop is at or above the last trade", async () => {
    const page = await signedIn("trader@example.com");
    const ticket = await tradingTicket(page);
    await field(ticket, "Order type").selectOption("STOP_MARKET");
    await field(ticket, "Stop price (USD)").fill("900000.00");
    const warning = ticket.getByTestId("stop-warning");
    await poll(() => warning.textContent(), { timeout: 20_000 }).toMatch(
      /^This stop is above the last trade \([\d,]+\.\d\d\): it would trigger at once\.$/,
    );
    await field(ticket, "Stop price (USD)").fill("1.00");
    await poll(() => warning.count()).toBe(0);
    await page.close();
  });
});

describe("the result follows its record until final, with a notice", () => {
  it("a market buy: Bought … for 100.00 USD at avg …, and 'Order filled'", async () => {
    const page = await signedIn("trader@example.com", WIDTHS.phone);
    const ticket = await tradingTicket(page);
    await poll(async () => (await ticket.locator("dd").nth(1).textContent()) ?? "", { timeout: 15_000 }).toMatch(/\d/);
    await field(ticket, "Order type").selectOption("MARKET");
    await field(ticket, "Quote amount (USD)").fill("100.00");
    await ticket.getByRole("button", { name: "Review order" }).click();
    await ticket.getByRole("button", { name: "Confirm and send" }).click();
    await poll(() => ticket.getByTestId("order-outcome").textContent(), { timeout: 10_000 }).toMatch(
      /^Bought [\d.]+ BTC for 100\.00 USD at avg [\d,]+\.\d\d USD$/,
    );
    await poll(() =>
      page
        .getByTestId("toast")
        .filter({ hasText: /Order \S+ filled/ })
        .count(),
    ).toBe(1);
    await screenshot(page, "entry-order-filled-phone");
    await expectNoSidewaysScroll(page, "the filled order at 390 px");
    await page.close();
  });

  it("a GTT order that expires: 'Expired (GTT)' on the card and a notice", async () => {
    const page = await signedIn("trader@example.com");
    const ticket = await tradingTicket(page);
    await field(ticket, "Price (USD)").fill("30000.00");
    await field(ticket, "Base amount (BTC)").fill("0.0123");
    await field(ticket, "Time in force").selectOption("GTT");
    // A minute ahead on the service's clock (at or ahead of the browser's): more than the 10 s
    // the ticket and the service ask for by the time it is sent, however slow the machine.
    const sentAt = await serverNow();
    await field(ticket, "Expires (your local time)").fill(await localInputValue(page, sentAt + 60_000 - Date.now()));
    await ticket.getByRole("button", { name: "Review order" }).click();
    const expiry = Number(
      /expiration_date(\d{13})/.exec((await ticket.getByTestId("review").locator("dl").textContent())!)![1],
    );
    await ticket.getByRole("button", { name: "Confirm and send" }).click();
    const outcome = ticket.getByTestId("order-outcome");
    await poll(() => outcome.textContent()).toBe("Resting: 0 of 0.0123 BTC filled");
    // The service's clock is moved past the expiry instead of waited for: it expires the order at once.
    await app.control.advance(Math.max(0, expiry - (await serverNow())) + 1_000);
    await poll(() => outcome.textContent()).toBe("Expired (GTT): 0 of 0.0123 BTC filled");
    await poll(() =>
      page
        .getByTestId("toast")
        .filter({ hasText: /GTT order \S+ expired/ })
        .count(),
    ).toBe(1);
    await page.close();
  });

  it.each(SIZES)(
    "a transfer at %s width (%i px): Sending … PENDING, then Sent … COMPLETED, and a notice",
    async (size, width) => {
      const page = await signedIn("ops@example.com", width);
      const form = await transferForm(page);
      await form.getByLabel("From profile").selectOption({ label: "Treasury" });
      await form.getByLabel("To profile").selectOption({ label: "Settlement" });
      await form.getByLabel("Asset").selectOption("EUR");
      const amount = String(width); // each width its own transfer
      await field(form, "Amount").fill(amount);
      await form.getByRole("button", { name: "Review transfer" }).click();
      expect(await form.getByTestId("transfer-review").textContent()).toContain("to Settlement");
      await form.getByRole("button", { name: "Confirm and send" }).click();
      const outcome = form.getByTestId("transfer-outcome");
      const words = `${formatMoney(amount, "EUR")} from Treasury to Settlement`;
      await poll(() => outcome.textContent()).toBe(`Sending ${words} — PENDING`);
      await poll(() => focusedLabel(page)).toBe("Amount");
      expect(await field(form, "Amount").inputValue()).toBe("");
      await screenshot(page, `entry-transfer-pending-${size}`);
      // The service settles it once its clock has moved past the settling time.
      await app.control.advance(TRANSFER_SETTLE_MS);
      await poll(() => outcome.textContent()).toBe(`Sent ${words} — COMPLETED`);
      await poll(() => page.getByTestId("toast").filter({ hasText: "Transfer completed" }).count()).toBe(1);
      await screenshot(page, `entry-transfer-completed-${size}`);
      await expectNoSidewaysScroll(page, `the transfer result at ${width} px`);
      await page.close();
    },
  );
});
