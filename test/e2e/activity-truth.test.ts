import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESULT_WORDS, STATUS_FILTER_OPTIONS } from "@/lib/shared/activity-outcome";
import { downloadText, keptPage, launchBrowser, poll, signInAs, WIDTHS } from "../support/browser";
import {
  newRef,
  sharedDashboard,
  smallOrder,
  smallTransfer,
  TRADING,
  TREASURY,
  type SharedDashboard,
} from "../support/dashboard";
import { RESERVE } from "../support/requests";

/**
 * Activity in a browser reports what the desk cares about (issue 26): a post-only limit order
 * that would cross the book, taken by the service and then REJECTED, reads Rejected, never a
 * success; a transfer refused for lack of funds names the sending profile by its nickname, the
 * service's own words included; the Status filter's labels are the badges' words; the CSV
 * says the same.
 */

const CAPTION = "Activity: requests sent from the dashboard";

let d: SharedDashboard;
let browser: Browser;
/** Journal entry ids: a post-only order rejected, an order resting, a transfer short of funds. */
const entries = { rejected: "", resting: "", short: "" };
const refs = { rejected: newRef("post-only"), resting: newRef("resting"), short: newRef("no-link") };

/** Rests a bid and an ask on `market` straight at the sandbox, from the treasury: a book, and a price. */
async function quote(market: string, bid: string, ask: string) {
  for (const [side, price] of [
    ["BUY", bid],
    ["SELL", ask],
  ] as const) {
    const body = { market, side, type: "LIMIT", price, base_amount: "100", ref_id: newRef("book") };
    const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

beforeAll(async () => {
  // An empty database (resetApp): the activity holds this file's entries alone.
  [d, browser] = await Promise.all([sharedDashboard(), launchBrowser()]);
  await quote("ETHUSD", "2990.00", "3010.00");
  await quote("LINKUSD", "7.90", "8.10");
  const order = (body: Record<string, unknown>) => d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body);
  // At the ask: it would take, and a post-only order must not. The service answers SUBMITTED.
  const postOnly = await order(smallOrder(refs.rejected, { type: "POST_ONLY_LIMIT", price: "3010.00" }));
  expect(postOnly.status, JSON.stringify(postOnly.body)).toBe(200);
  const resting = await order(smallOrder(refs.resting));
  expect(resting.status, JSON.stringify(resting.body)).toBe(200);
  // The operations reserve holds no LINK: the service refuses, naming the profile by its id.
  const short = await d.as.ops.call(
    "POST",
    "/api/v2/transfer/internal",
    smallTransfer(refs.short, { from_profile_id: RESERVE, to_profile_id: TREASURY, asset: "LINK", amount: "1" }),
  );
  expect(short.status, JSON.stringify(short.body)).toBe(403);
  expect(short.body.detail).toContain(RESERVE);
  for (const key of Object.keys(refs) as (keyof typeof refs)[]) {
    const [entry] = await d.journal(refs[key]);
    entries[key] = entry!.id;
  }
});
afterAll(async () => {
  await browser?.close();
});

async function activityPage(email: string): Promise<Page> {
  const page = await keptPage(browser, { width: WIDTHS.laptop, height: 900 });
  await signInAs(page, d.url, email, undefined, "/activity");
  return page;
}

const table = (page: Page) => page.locator("table", { has: page.locator(`caption:text-is("${CAPTION}")`) });
const row = (page: Page, entryId: string): Locator => table(page).locator(`tr[data-row="${entryId}"]`);
const badge = (page: Page, entryId: string): Locator => row(page, entryId).locator("[data-result]");
/** The text shown now, "" while nothing matches: a poll reads it again, never waits on it. */
const text = async (l: Locator) => (await l.allTextContents()).join("");

describe("activity reports the outcome the desk cares about", () => {
  it("reads Rejected for the post-only order the service rejected, and names the profile short of funds", async () => {
    const page = await activityPage("trader@example.com");
    await poll(() => table(page).locator("tr[data-row]").count()).toBe(3);

    // The service took it, then rejected it: the page learns it from the service's list.
    await poll(() => text(badge(page, entries.rejected))).toBe(RESULT_WORDS.rejected);
    expect(await text(badge(page, entries.rejected))).not.toMatch(/succeeded|accepted/i);
    expect(await text(row(page, entries.rejected))).toContain("Order rejected by the service");
    expect(await text(badge(page, entries.resting))).toBe(RESULT_WORDS.accepted);

    const short = await text(row(page, entries.short));
    expect(await text(badge(page, entries.short))).toBe(RESULT_WORDS.failed);
    expect(short).toContain("insufficient LINK funds in Operations reserve");
    expect(short).not.toContain(RESERVE);
    await page.close();
  });

  it("the Status filter's labels are the badges' words, and each choice shows only badges its label names", async () => {
    const page = await activityPage("viewer@example.com");
    const status = page.getByRole("toolbar", { name: "Filter activity" }).getByLabel("Status");
    const labels = await status.locator("option").allTextContents();
    expect(labels).toEqual(["All", ...STATUS_FILTER_OPTIONS.map((o) => o.label)]);
    expect(labels.join()).not.toMatch(/succeeded/i);

    const rows = table(page).locator("tr[data-row]");
    for (const [label, count] of [
      [STATUS_FILTER_OPTIONS.find((o) => o.value === "succeeded")!.label, 2],
      [STATUS_FILTER_OPTIONS.find((o) => o.value === "failed")!.label, 1],
    ] as const) {
      await status.selectOption({ label });
      await poll(() => rows.count(), { message: label }).toBe(count);
      for (const word of await rows.locator("[data-result]").allTextContents())
        expect(label.toLowerCase(), `a ${word} row under "${label}"`).toContain(word.toLowerCase());
    }
    await page.close();
  });

  it("the CSV says the same: the badge's word beside the journal's code, the profile by nickname", async () => {
    const page = await activityPage("viewer@example.com");
    await poll(() => text(badge(page, entries.rejected))).toBe(RESULT_WORDS.rejected);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: /Export CSV/ }).click();
    const lines = (await downloadText(await download)).split("\r\n").filter(Boolean);
    const header = lines[0]!.split(",");
    const lineOf = (ref: string) => lines.find((l) => l.includes(ref)) ?? "";
    const cell = (ref: string, name: string) => lineOf(ref).split(",")[header.indexOf(name)];
    expect(cell(refs.rejected, "status")).toBe("succeeded");
    expect(cell(refs.rejected, "result")).toBe(RESULT_WORDS.rejected);
    expect(cell(refs.resting, "result")).toBe(RESULT_WORDS.accepted);
    expect(cell(refs.short, "result")).toBe(RESULT_WORDS.failed);
    expect(lineOf(refs.short)).toContain("insufficient LINK funds in Operations reserve");
    // The id stays in its own column, for machines, and nowhere else.
    expect(cell(refs.short, "profile_id")).toBe(RESERVE);
    expect(lineOf(refs.short).split(RESERVE)).toHaveLength(2);
    await page.close();
  });
});
