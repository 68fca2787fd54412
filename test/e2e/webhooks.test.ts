import type { Browser, Locator, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  afterNextFrames,
  axeViolations,
  coloursChanged,
  expectAccessible,
  expectNoSidewaysScroll,
  keptPage,
  launchBrowser,
  openFromNav,
  poll,
  screenshot,
  settled,
  signInAs,
  WIDTHS,
} from "../support/browser";
import { COLOUR_RULES } from "../support/axe-rules";
import { resetApp, type SharedApp } from "../support/shared-app";
import { webhookReceiver, type Receiver } from "../support/webhook-receiver";
import { TEST_EVENT_TYPE, WEBHOOK_SECRET_PREFIX } from "@/lib/shared/webhooks";

/**
 * The Webhooks page (issue 30), an admin's, against the built app and a local receiver (loopback,
 * allowed by WEBHOOK_ALLOW_HOSTS as a deployment's own receivers would be): a URL the server refuses
 * shows its rule at the URL field and adds nothing; a webhook added shows its signing secret once;
 * "Send test event" reaches the receiver, signed, and its delivery reads DELIVERED; a receiver
 * answering 500 leaves it PENDING after one attempt (and a second 5 s later), and Retry, once it answers 200, delivers it
 * with the same webhook-id; Remove, confirmed, takes it away. At a phone's 390 px it does not scroll
 * sideways, and axe finds nothing in either theme. And every person's email notifications: turned
 * off on their own page, still off after a reload. The dispatcher sweeps every second: the test polls
 * for each state, never sleeps, and moves the shared app's clock to an automatic retry.
 */

let app: SharedApp;
let browser: Browser;
let receiver: Receiver;
/** The admin's page, opened once at a laptop's width (from the navigation) and used by the tests in order. */
let page: Page;
let secret = "";
let webhookId = "";

beforeAll(async () => {
  [app, browser, receiver] = await Promise.all([
    resetApp({ WEBHOOK_ALLOW_HOSTS: "127.0.0.1" }),
    launchBrowser(),
    webhookReceiver(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

function parts() {
  const form = page.getByRole("form", { name: "New webhook" });
  return {
    form,
    url: form.getByLabel("URL", { exact: true }),
    description: form.getByLabel("Description", { exact: true }),
    all: form.getByRole("checkbox", { name: /^All events/ }),
    event: (type: string) => form.getByRole("checkbox", { name: new RegExp(`^${type.replace(".", "\\.")}\\b`) }),
    add: form.getByRole("button", { name: "Add webhook" }),
    secretBox: page.getByTestId("new-secret"),
    list: page.getByRole("list", { name: "Webhooks" }),
  };
}

/** The message shown under the input labelled `label` (its aria-describedby's alert). */
async function fieldError(label: string): Promise<string> {
  const input = parts().form.getByLabel(label, { exact: true });
  await poll(() => input.getAttribute("aria-invalid")).toBe("true");
  const ids = (await input.getAttribute("aria-describedby"))!.split(" ");
  return (await page.locator(`[id="${ids.at(-1)}"]`).textContent())!;
}

/** Counts the page's POSTs to /api/webhooks from now on. */
function watchWebhookPosts(): () => number {
  let n = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/webhooks") n += 1;
  });
  return () => n;
}

const item = (): Locator => page.locator(`li[data-row="${webhookId}"]`);
const deliveryRows = (): Locator => item().locator('[role="row"][data-row]');
/** A delivery row as the page shows it: "STATUS attempts last-answer". */
const rowState = async (row: Locator): Promise<string> =>
  `${await row.getAttribute("data-status")} ${await row.getAttribute("data-attempts")} ${await row.getByTestId("last-answer").textContent()}`;

/** What the receiver got for one delivery (its webhook-id), each verified with the webhook's secret. */
const receivedFor = (deliveryId: string) =>
  receiver.received
    .filter((r) => r.headers["webhook-id"] === deliveryId)
    .map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string });

describe("the Webhooks page (admin)", () => {
  it("refuses the metadata address at the URL field, and an empty choice of events, adding nothing", async () => {
    page = await browser.newPage({ viewport: { width: WIDTHS.laptop, height: 900 } });
    await signInAs(page, app.url, "admin@example.com");
    await openFromNav(page, "Webhooks");
    await page.waitForURL(/\/webhooks$/);
    await settled(page);
    const posts = watchWebhookPosts();
    const f = parts();
    // The browser's own rule first: no event chosen is refused before anything is sent.
    await f.url.fill("https://169.254.169.254/latest/meta-data/");
    await f.add.click();
    await poll(() => page.getByRole("group", { name: "Events" }).getByRole("alert").textContent()).toBe(
      `Events must name at least one event, or "*" for every event`,
    );
    await afterNextFrames(page);
    expect(posts(), "a form the schema refuses sends nothing").toBe(0);

    // The address is the server's to judge: its 400 lands on the URL field.
    await f.event("order.filled").check();
    await f.add.click();
    await poll(() => fieldError("URL")).toContain(
      "169.254.169.254 is a private, loopback, link-local or metadata address",
    );
    expect(posts()).toBe(1);
    expect(await page.getByRole("group", { name: "Events" }).getByRole("alert").count()).toBe(0);
    expect(await page.getByText("No webhooks yet").isVisible()).toBe(true);
    const listed = await page.evaluate(() => fetch("/api/webhooks").then((r) => r.json()));
    expect(listed.items).toEqual([]);
    await screenshot(page, "webhooks-refused-1280");
  });

  it("adds a webhook to the receiver and shows its signing secret once", async () => {
    const f = parts();
    await f.url.fill(receiver.url);
    await f.event("order.filled").uncheck();
    await f.all.check();
    await poll(() => f.event("order.filled").isDisabled()).toBe(true);
    await f.description.fill("ledger sync");
    await f.add.click();
    await f.secretBox.waitFor();
    expect(await f.secretBox.getByRole("heading").textContent()).toMatch(/you will not see it again/i);
    secret = (await page.getByTestId("secret-value").textContent())!;
    expect(secret.startsWith(WEBHOOK_SECRET_PREFIX)).toBe(true);
    expect(await f.secretBox.getByRole("button", { name: "Copy", exact: true }).isVisible()).toBe(true);
    // The form is empty again, for another webhook.
    expect(await f.url.inputValue()).toBe("");

    const row = f.list.locator("li[data-row]", { hasText: receiver.url });
    await poll(() => row.getAttribute("data-state")).toBe("enabled");
    webhookId = (await row.getAttribute("data-row"))!;
    const text = await row.textContent();
    expect(text).toContain("ledger sync");
    expect(text).toContain("All events");
    expect(text).toContain("admin@example.com");
    await screenshot(page, "webhooks-created-1280");

    // Gone after a reload: the server never shows it again.
    await page.reload();
    await settled(page);
    await poll(() => item().getAttribute("data-state")).toBe("enabled");
    expect(await f.secretBox.count()).toBe(0);
    expect(await page.locator("body").textContent()).not.toContain(secret);
    const listed = await page.evaluate(() => fetch("/api/webhooks").then((r) => r.text()));
    expect(listed).toContain(webhookId);
    expect(listed).not.toContain(secret);
  });

  it("sends a test event: the receiver gets it signed, and its delivery reads DELIVERED", async () => {
    await item()
      .getByRole("button", { name: `Send test event to ${receiver.url}` })
      .click();
    // The deliveries open in place.
    const toggle = item().getByRole("button", { name: /deliveries$/ });
    await poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    const row = deliveryRows().first();
    await poll(() => rowState(row)).toBe("DELIVERED 1 HTTP 200");
    expect(await row.getByRole("cell").nth(1).textContent()).toContain(TEST_EVENT_TYPE);
    const deliveryId = (await row.getAttribute("data-row"))!;
    const got = receivedFor(deliveryId);
    expect(got.map((b) => b.type)).toEqual([TEST_EVENT_TYPE]);
    expect(await row.getByRole("button", { name: /^Retry/ }).count(), "nothing to retry").toBe(0);
    await screenshot(page, "webhooks-delivered-1280");
  });

  it("shows a delivery the receiver refused (500) as PENDING after one attempt; Retry, once it answers 200, delivers it", async () => {
    // Refused twice (the first attempt, and the automatic one 5 s later), then taken: Retry is
    // clicked while the next automatic attempt is 5 minutes away, so it is Retry's attempt that delivers.
    receiver.answer({ status: 500 }, { status: 500 }, { status: 200 });
    const first = await deliveryRows().first().getAttribute("data-row");
    await item()
      .getByRole("button", { name: `Send test event to ${receiver.url}` })
      .click();
    const row = deliveryRows().first();
    await poll(() => row.getAttribute("data-row")).not.toBe(first);
    const deliveryId = (await row.getAttribute("data-row"))!;
    const retried = item().locator(`[role="row"][data-row="${deliveryId}"]`);
    // Its next attempt is due 5 s after the first: the page, reading every 2 s while one is pending, shows it waiting.
    await poll(() => rowState(retried)).toBe("PENDING 1 HTTP 500");
    expect(await retried.getByRole("cell").nth(5).locator("time").count(), "its next attempt's time").toBe(1);
    await screenshot(page, "webhooks-pending-1280");

    // Its second attempt falls due 5 s on, on the runtime's clock: moved, not waited for.
    await app.control.advance(5_000);
    await poll(() => rowState(retried)).toBe("PENDING 2 HTTP 500");
    await retried.getByRole("button", { name: /^Retry/ }).click();
    await poll(() => retried.getAttribute("data-status")).toBe("DELIVERED");
    expect(await retried.getByTestId("last-answer").textContent()).toBe("HTTP 200");
    // One delivery, one webhook-id for every attempt: the 500, then the 200; each attempt counted.
    await poll(async () => Number(await retried.getAttribute("data-attempts"))).toBe(receivedFor(deliveryId).length);
    const got = receivedFor(deliveryId);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(new Set(got.map((b) => b.type))).toEqual(new Set([TEST_EVENT_TYPE]));
  });

  it("fits a phone (390 px) with its deliveries open, in the light and the dark theme, with no axe violation", async () => {
    await page.setViewportSize({ width: WIDTHS.phone, height: 844 });
    await afterNextFrames(page);
    await expectNoSidewaysScroll(page, "the webhooks page at 390 px");
    await expectAccessible(page, "the webhooks page at 390 px");
    await screenshot(page, "webhooks-390");
    await page.emulateMedia({ colorScheme: "dark" });
    await coloursChanged(page);
    await poll(() => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(
      "rgb(2, 6, 23)",
    );
    await expectNoSidewaysScroll(page, "the webhooks page at 390 px, dark");
    expect(await axeViolations(page, { rules: COLOUR_RULES })).toEqual([]);
    await screenshot(page, "webhooks-390-dark");
  });

  it("removes the webhook after a confirmation: it is gone", async () => {
    await item()
      .getByRole("button", { name: `Remove ${receiver.url}` })
      .click();
    const confirm = item().getByRole("group", { name: `Remove ${receiver.url}?` });
    await expectNoSidewaysScroll(page, "the remove confirmation at 390 px");
    await confirm.getByRole("button", { name: "Remove it" }).click();
    await poll(() => item().count()).toBe(0);
    expect(await page.getByText("No webhooks yet").isVisible()).toBe(true);
    const listed = await page.evaluate(() => fetch("/api/webhooks").then((r) => r.json()));
    expect(listed.items).toEqual([]);
    await page.close();
  });
});

describe("email notifications (every person's own)", () => {
  it("a trader turns them off on their own page, reached from their menu: still off after a reload; Webhooks is not theirs", async () => {
    const own = await keptPage(browser, { width: WIDTHS.laptop, height: 800 });
    await signInAs(own, app.url, "trader@example.com");
    const nav = own.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Webhooks" }).count(), "an admin's page").toBe(0);
    await nav.getByRole("link", { name: "Notifications" }).click();
    await own.waitForURL(/\/notifications$/);
    await settled(own);
    const box = own.getByRole("checkbox", { name: /^Email me when a request waits for my approval/ });
    await poll(() => box.getAttribute("data-loaded"), {
      message: "the setting is read (GET /api/notifications answers)",
    }).toBe("true");
    expect(await box.isChecked(), "on unless turned off").toBe(true);
    // The box follows the click at once: one that waited for the save's news sprang back first
    // (and Playwright's uncheck, reading it then, failed in CI).
    expect(await box.evaluate((el: HTMLInputElement) => (el.click(), el.checked)), "off as soon as clicked").toBe(
      false,
    );
    await poll(() => own.getByTestId("notifications-saved").textContent()).toBe(
      "Saved: you will not get these emails.",
    );
    expect(await own.getByRole("alert").filter({ hasText: "Not saved" }).count()).toBe(0);
    await expectAccessible(own, "the notifications page");
    await screenshot(own, "notifications-1280");

    await own.reload();
    await poll(() => box.getAttribute("data-loaded")).toBe("true");
    expect(await box.isChecked(), "still off after a reload").toBe(false);

    // The Webhooks page is an admin's: another role is told who sets them, as on /policies.
    await own.goto(`${app.url}/webhooks`);
    expect(await own.getByTestId("read-only-note").textContent()).toContain("set by an admin");
    expect(await own.getByRole("form", { name: "New webhook" }).count()).toBe(0);
    await own.close();
  });
});
