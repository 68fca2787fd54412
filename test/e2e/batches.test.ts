import type { Browser, Locator, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDecimal, subtractDecimal } from "@/lib/spec/decimal";
import { signIn } from "../support/app-server";
import {
  armed,
  expectNoSidewaysScroll,
  keptPage,
  launchBrowser,
  LAYOUT_WIDTHS,
  poll,
  screenshot,
  settled,
  signInAs,
} from "../support/browser";
import { SETTLEMENT, TREASURY } from "../support/dashboard";
import { resetApp } from "../support/shared-app";

/**
 * The Batches page (issue 27), at a laptop's 1280 and a phone's 390 px: a file refused fits the
 * page, a good one previews its totals and funds, Submit batch
 * goes through the review and the batch is followed to COMPLETED row by row, a batch over the
 * approval threshold waits for approval, a shortfall is the 403's words, and rebalancing makes a
 * batch from its plan. Each width starts from an empty desk (resetApp), so the person's rolling
 * total and the repeat question start afresh. Each rule of a refused file, on its field, is the
 * components project's (test/components/batch-file.test.tsx).
 */

let app: { url: string };
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CSV_HEADER = "from_profile,to_profile,asset,amount,ref_id,note";
const csv = (...rows: string[]) => [CSV_HEADER, ...rows].join("\n");

async function batchesPage(width: number, email = "ops@example.com"): Promise<Page> {
  const page = await keptPage(browser, { width, height: width > 500 ? 800 : 844 });
  await signInAs(page, app.url, email, undefined, "/batches");
  await settled(page);
  return page;
}

/** The batch's form and its preview. */
function parts(page: Page) {
  const form = page.getByRole("form", { name: "Batch of transfers" });
  const table = page.locator("table", {
    has: page.locator('caption:text-is("Transfers of the batch, as read from the file")'),
  });
  const state = page.getByTestId("preview-state");
  return { form, table, state, text: form.getByLabel("Transfers (CSV)") };
}

/** Waits until the preview answered the batch as it is now ("refused" or "ready"). */
async function previewed(page: Page, expected: "refused" | "ready"): Promise<void> {
  await poll(() => parts(page).state.getAttribute("data-state")).toBe(expected);
}

/** The message of a refused cell: it is marked aria-invalid and described by the message. */
async function refusal(table: Locator, row: number, field: string): Promise<string> {
  const cell = table.locator(`tr[data-row="${row}"] td[data-field="${field}"]`);
  await poll(() => cell.getAttribute("aria-invalid")).toBe("true");
  const id = (await cell.getAttribute("aria-describedby"))!;
  return (await table.page().locator(`[id="${id}"]`).textContent())!;
}

/** Every POST that would make a batch (not its preview). */
function watchBatchPosts(page: Page): () => string[] {
  const seen: string[] = [];
  page.on("request", (r: Request) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === "POST" && path === "/api/batches") seen.push(path);
  });
  return () => [...seen];
}

/** Submit batch, the review, Confirm: the batch's progress. */
async function submit(page: Page, { sentence, confirm = "Confirm and send" }: { sentence: RegExp; confirm?: string }) {
  const { form } = parts(page);
  await form.getByRole("button", { name: "Submit batch" }).click();
  const review = form.getByTestId("review");
  await review.waitFor();
  expect(await form.getByTestId("batch-review").textContent()).toMatch(sentence);
  await screenshot(page, `batches-review-${page.viewportSize()?.width}`);
  await (await armed(review.getByRole("button", { name: confirm }))).click();
}

const progressOf = (page: Page) => page.getByTestId("batch-progress");

for (const [name, width] of LAYOUT_WIDTHS) {
  describe(`the Batches page on a ${name} (${width} px)`, () => {
    beforeAll(async () => {
      // The market maker quotes: the totals and the controls price BTC and LINK.
      app = await resetApp({ SANDBOX_MARKET_MAKER: "on" });
    });

    it("fits a refused file's preview without sideways scroll; previews a good file's totals with their worth, and each sender's funds beside what it needs", async () => {
      const page = await batchesPage(width);
      const { text, table } = parts(page);
      // Refused cells, each with its message in place.
      await text.fill(csv("Treasury,Treasury,USD,10,,self-send", "Nobody,Settlement,USD,abc,,"));
      await previewed(page, "refused");
      expect(await refusal(table, 2, "from")).toMatch(/^From profile "Nobody" is not one of the desk's profiles/);
      await screenshot(page, `batches-refused-${width}`);
      await expectNoSidewaysScroll(page, "a refused batch");

      await text.fill(
        csv("Treasury,Settlement,USD,1.25,,rent", "Treasury,Trading,BTC,0.001,,", "Settlement,Trading,USD,2,,"),
      );
      await previewed(page, "ready");
      expect(await parts(page).state.textContent()).toBe("3 transfers, ready to submit");
      expect(await table.locator("td[aria-invalid]").count()).toBe(0);
      // The rows as read: profiles by nickname, amounts formatted, each row's ref_id made from the batch's.
      const first = table.locator('tr[data-row="1"]');
      expect(await first.locator('td[data-field="from"]').textContent()).toBe("Treasury");
      expect(await first.locator('td[data-field="amount"]').textContent()).toBe("1.25");
      expect(await first.locator('td[data-field="ref_id"]').textContent()).toMatch(/^dash-[0-9a-f-]{36}-1$/);

      const totals = page.getByTestId("batch-totals");
      expect(await totals.locator('tr[data-asset="USD"]').textContent()).toMatch(/^USD3\.253\.25 USD$/);
      expect(await totals.locator('tr[data-asset="BTC"]').textContent()).toMatch(/^BTC0\.001[\d,.]+ USD$/);
      const funds = page.getByTestId("batch-funds");
      const treasuryUsd = funds.locator('tr[data-profile="Treasury"][data-asset="USD"]');
      expect(await treasuryUsd.textContent()).toMatch(/^Treasury1\.25 USD[\d,]+\.\d\d USD$/);
      expect(await treasuryUsd.getAttribute("data-short")).toBe("false");
      expect(await funds.locator('tr[data-profile="Settlement"][data-asset="USD"]').count()).toBe(1);
      expect(await funds.getByTestId("shortfall").count()).toBe(0);
      await screenshot(page, `batches-preview-${width}`);
      await expectNoSidewaysScroll(page, "a batch previewed");
      await page.close();
    });

    it("sends a batch through the review and follows it to COMPLETED, every row SENT; the same rows again are asked about", async () => {
      const page = await batchesPage(width);
      const { text } = parts(page);
      // Amounts of each width's own: not a repeat of another test's rows.
      const [each, total] = width > 500 ? ["0.31", "0\\.62"] : ["0.32", "0\\.64"];
      await text.fill(csv(`Treasury,Settlement,USD,${each},,`, `Settlement,Treasury,USD,${each},,`));
      await previewed(page, "ready");
      await submit(page, {
        sentence: new RegExp(`^Send 2 transfers, ${total} USD in all, worth about ${total} USD\\.$`),
      });
      const progress = progressOf(page);
      await progress.waitFor();
      await poll(() => progress.getAttribute("data-status"), { timeout: 30_000 }).toBe("COMPLETED");
      const bar = progress.getByRole("progressbar");
      expect(await bar.getAttribute("aria-valuenow")).toBe("2");
      expect(await bar.getAttribute("aria-valuemax")).toBe("2");
      const rows = progress.getByTestId("row-status");
      await poll(() => rows.evaluateAll((all) => all.map((r) => r.getAttribute("data-status")))).toEqual([
        "SENT",
        "SENT",
      ]);
      expect(await progress.locator('[data-count="sent"] dd').textContent()).toBe("2");
      // Each row's transfer, and the results as a file.
      expect(await progress.locator("td[data-label=Transfer] code").count()).toBe(2);
      expect(await progress.getByRole("link", { name: /Results CSV/ }).getAttribute("href")).toMatch(
        /^\/api\/batches\/[^/]+\/results\.csv$/,
      );
      // The batch is in the list of past batches, COMPLETED.
      const past = page.locator("table", { has: page.locator('caption:text-is("Batches, newest first")') });
      await poll(() => past.locator("[data-testid=batch-row-status]").first().getAttribute("data-status")).toBe(
        "COMPLETED",
      );
      await screenshot(page, `batches-completed-${width}`);
      await expectNoSidewaysScroll(page, "a batch sent");

      // The same rows again moments later, under the new ref_id the form made: asked about, as a
      // single transfer is. On the laptop "Send another" sends them; on the phone "Don't send" does not.
      const posts = watchBatchPosts(page);
      await text.fill(csv(`Treasury,Settlement,USD,${each},,`, `Settlement,Treasury,USD,${each},,`));
      await previewed(page, "ready");
      await submit(page, { sentence: /^Send 2 transfers/ });
      const { form } = parts(page);
      const review = form.getByTestId("review");
      await poll(() => review.getByTestId("repeat-question").textContent()).toMatch(
        /^You sent this \d+ s ago\. Send another\?$/,
      );
      const title = () => progress.getByRole("heading", { level: 2 }).textContent();
      const first = await title();
      if (width > 500) {
        await (await armed(review.getByRole("button", { name: "Send another" }))).click();
        await poll(() => past.locator("tr[data-row]").count()).toBe(2);
        // The new batch is followed now, to its end.
        await poll(title).not.toBe(first);
        await poll(() => progress.getAttribute("data-status"), { timeout: 30_000 }).toBe("COMPLETED");
        expect(posts()).toHaveLength(2);
      } else {
        await review.getByRole("button", { name: "Don't send" }).click();
        await poll(() => review.count()).toBe(0);
        expect(posts()).toHaveLength(1);
        expect(await past.locator("tr[data-row]").count()).toBe(1);
      }
      await page.close();
    });

    it("holds a batch over the approval threshold: the review says so, and it awaits approval", async () => {
      const page = await batchesPage(width);
      const { text, form } = parts(page);
      await text.fill(csv("Treasury,Settlement,USD,15000,,", "Treasury,Trading,USD,5000,,"));
      await previewed(page, "ready");
      await form.getByRole("button", { name: "Submit batch" }).click();
      const review = form.getByTestId("review");
      await poll(() => review.getByTestId("needs-approval").count()).toBe(1);
      await (await armed(review.getByRole("button", { name: "Submit for approval" }))).click();
      const progress = progressOf(page);
      await poll(() => progress.getAttribute("data-status")).toBe("AWAITING_APPROVAL");
      expect(await progress.getByTestId("batch-awaiting").textContent()).toMatch(/^Waiting for an approver/);
      expect(await progress.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("0");
      await screenshot(page, `batches-awaiting-${width}`);

      // Its requester may cancel it while it waits: every row skipped.
      await progress.getByRole("button", { name: "Cancel batch" }).click();
      await progress
        .getByRole("group", { name: /^Confirm cancel of batch / })
        .getByRole("button", { name: "Cancel batch" })
        .click();
      await poll(() => progress.getAttribute("data-status")).toBe("CANCELLED");
      expect(await progress.locator('[data-count="skipped"] dd').textContent()).toBe("2");
      await page.close();
    });

    it("refuses a batch its sender cannot fund, in the 403's words: the profile, the asset, what it has and needs", async () => {
      const page = await batchesPage(width);
      const { text, form } = parts(page);
      await text.fill(csv("Operations reserve,Settlement,LINK,3,,"));
      await previewed(page, "ready");
      const short = page.getByTestId("batch-funds").locator('tr[data-profile="Operations reserve"][data-asset="LINK"]');
      expect(await short.getAttribute("data-short")).toBe("true");
      expect(await short.getByTestId("shortfall").textContent()).toBe("short by 3 LINK");
      await form.getByRole("button", { name: "Submit batch" }).click();
      const review = form.getByTestId("review");
      await poll(() => review.getByTestId("will-refuse").count()).toBe(1);
      await (await armed(review.getByRole("button", { name: "Confirm and send" }))).click();
      const alert = form.getByRole("alert").filter({ hasText: "The batch was not sent" });
      await poll(() => alert.textContent()).toMatch(
        /Operations reserve has 0 LINK available; this batch needs 3 LINK\./,
      );
      expect(await progressOf(page).count()).toBe(0);
      await screenshot(page, `batches-shortfall-${width}`);
      await page.close();
    });

    it("refuses a batch past the person's daily transfer limit, in the 403's words, and sends nothing", async () => {
      const page = await batchesPage(width);
      const { text, form } = parts(page);
      await text.fill(csv(...Array.from({ length: 3 }, (_, i) => `Treasury,Settlement,USD,"400,00${i}.00",,`)));
      await previewed(page, "ready");
      await form.getByRole("button", { name: "Submit batch" }).click();
      const review = form.getByTestId("review");
      await poll(() => review.getByTestId("will-refuse").count()).toBe(1);
      await (await armed(review.getByRole("button", { name: "Confirm and send" }))).click();
      const alert = form.getByRole("alert").filter({ hasText: "The batch was not sent" });
      await poll(() => alert.textContent()).toMatch(/at most 1,000,000\.00 USD of transfers a day/);
      expect(await progressOf(page).count()).toBe(0);
      await page.close();
    });

    it("lets a reader open a past batch's results, read only: no form, no Cancel", async () => {
      const page = await batchesPage(width, "viewer@example.com");
      expect(await parts(page).form.count()).toBe(0);
      expect(await page.getByTestId("read-only-note").textContent()).toMatch(/^You can read batches/);
      const past = page.locator("table", { has: page.locator('caption:text-is("Batches, newest first")') });
      const completed = past.locator("tr[data-row]", {
        has: page.locator('[data-testid=batch-row-status][data-status="COMPLETED"]'),
      });
      await poll(() => completed.count()).toBeGreaterThan(0);
      await completed
        .first()
        .getByRole("button", { name: /^Open the results of batch / })
        .click();
      const progress = progressOf(page);
      await poll(() => progress.getAttribute("data-status")).toBe("COMPLETED");
      await poll(() => progress.getByTestId("row-status").count()).toBeGreaterThan(0);
      // Focus on its title, read from its start.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Batch /);
      expect(await progress.getByRole("button", { name: "Cancel batch" }).count()).toBe(0);
      await expectNoSidewaysScroll(page, "a reader's batch results");
      await screenshot(page, `batches-reader-${width}`);
      await page.close();
    });

    it("rebalances: saves the targets, shows the plan, and makes a batch of it through the same review", async () => {
      const ops = await signIn(app, "ops@example.com");
      const usdOf = async (profile: string) => {
        const res = await ops.call("GET", `/api/v2/profiles/${profile}/balances`);
        expect(res.status).toBe(200);
        return (res.body.items as { asset: string; available: string }[]).find((b) => b.asset === "USD")!.available;
      };
      // Settlement 4.50 USD under its target, Treasury 100 over its own: the plan moves 4.50.
      const [treasury, settlement] = await Promise.all([usdOf(TREASURY), usdOf(SETTLEMENT)]);

      const page = await batchesPage(width);
      const targets = page.getByRole("form", { name: "Rebalancing targets" });
      for (const [n, profile, target] of [
        [1, "Treasury", subtractDecimal(treasury, "100")],
        [2, "Settlement", addDecimal(settlement, "4.5")],
      ] as const) {
        await targets.getByRole("button", { name: "Add target" }).click();
        await targets.getByLabel(`Profile of target ${n}`).selectOption({ label: profile });
        await targets.getByLabel(`Asset of target ${n}`).selectOption("USD");
        await targets.getByLabel(`Target of target ${n}`).fill(target);
        await targets.getByLabel(`Band of target ${n}`).fill("1");
      }
      await targets.getByRole("button", { name: "Save targets" }).click();
      await poll(() => targets.getByTestId("targets-state").textContent()).toBe("Saved");

      const plan = page.getByTestId("rebalance-plan");
      const planned = plan.locator("tr[data-row]");
      await poll(() => planned.count()).toBe(1);
      expect(await planned.first().textContent()).toBe("TreasurySettlementUSD4.50");
      await screenshot(page, `batches-rebalancing-${width}`);
      await plan.getByRole("button", { name: "Make a batch of 1 transfer" }).click();
      await poll(() => parts(page).form.getByTestId("batch-source").textContent()).toBe(
        "The rebalancing plan: 1 transfer",
      );
      await previewed(page, "ready");
      await submit(page, { sentence: /^Send 1 transfer, 4\.50 USD in all/ });
      await poll(() => progressOf(page).getAttribute("data-status"), { timeout: 30_000 }).toBe("COMPLETED");
      await expectNoSidewaysScroll(page, "rebalancing");
      await page.close();
    });
  });
}
