import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { armed, launchBrowser, poll, settled, signInAs } from "../support/browser";
import { newRef, sharedDashboard, TREASURY, type SharedDashboard } from "../support/dashboard";
import { RESERVE } from "../support/requests";

/**
 * Issue 26: deciding is deliberate and in place. Ops asks for 45,000 USD from Treasury to
 * Operations reserve (past the 10,000 USD rule); on the approver's card, Approve ignores
 * activation until it has been on screen a moment, then asks in the buttons' place with the
 * request restated, and Confirm sends it once.
 */

let d: SharedDashboard;
let browser: Browser;
beforeAll(async () => {
  // resetApp: an empty database, so the one request waiting is this file's.
  [d, browser] = await Promise.all([sharedDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
});

/** Every decision the page sends (POST /api/approvals/{id}/approve|reject|withdraw). */
function watchDecisions(page: Page): () => string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === "POST" && path.startsWith("/api/approvals/")) seen.push(path);
  });
  return () => [...seen];
}

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

describe("deciding is deliberate and in place", () => {
  it("an early Approve does nothing; the armed one restates the request; Confirm sends it once", async () => {
    // The page's timers run on Playwright's clock, so Approve's pause can be held while it is clicked.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.clock.install();
    await signInAs(page, d.url, "approver@example.com", undefined, "/approvals");
    await page.getByText("Nothing waits for approval.").waitFor();
    await settled(page);
    const decisions = watchDecisions(page);

    // The page's clock held, ops asks; the card arrives over the live stream while the page's
    // time moves a few milliseconds at a step, far short of the arming pause.
    await pauseSoon(page);
    const ref = newRef("e2e-deciding");
    const asked = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
      from_profile_id: TREASURY,
      to_profile_id: RESERVE,
      asset: "USD",
      amount: "45000",
      ref_id: ref,
      metadata: { test: ref },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const card = page.locator(`[data-approval-id="${asked.body.approval.id}"]`);
    const approve = card.getByRole("button", { name: "Approve and send" });
    await poll(async () => {
      await page.clock.runFor(10);
      return approve.count();
    }).toBe(1);

    // (a) Before it is armed, a click, Enter and Space on Approve do nothing: no question, no request.
    expect(await approve.getAttribute("data-armed"), "still in its pause").toBe("false");
    await approve.click({ force: true });
    await approve.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press(" ");
    expect(await card.getByTestId("approve-confirm").count(), "no question opened").toBe(0);
    expect(decisions(), "an early Approve sends nothing").toEqual([]);
    await page.clock.resume();
    await armed(approve);
    expect(await card.getByTestId("approve-confirm").count()).toBe(0);
    expect(decisions()).toEqual([]);
    expect(await card.getByTestId("decision-terms").textContent()).toBe(
      "Approving sends 45,000.00 USD from Treasury to Operations reserve.",
    );

    // (b) Armed, Approve asks first, in its own place: the amount and both profiles by nickname.
    await approve.click();
    const question = card.getByRole("group", {
      name: "Approve and send 45,000.00 USD from Treasury to Operations reserve?",
    });
    await question.waitFor();
    expect(await card.getByTestId("approve-question").evaluate((el) => el === document.activeElement)).toBe(true);
    expect(decisions(), "the question sends nothing").toEqual([]);
    // Escape takes the question back, focus on Approve; Enter there asks again.
    await page.keyboard.press("Escape");
    await poll(() => question.count()).toBe(0);
    expect(await approve.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await question.waitFor();
    expect(decisions()).toEqual([]);

    // (c) Confirmed (a double click), it is sent once.
    const confirm = question.getByRole("button", { name: "Confirm", exact: true });
    await (await armed(confirm)).dblclick();
    await poll(() => card.getByTestId("approval-result").textContent()).toMatch(
      /^Approved and sent: transfer (PENDING|COMPLETED)$/,
    );
    expect(decisions()).toEqual([`/api/approvals/${asked.body.approval.id}/approve`]);
    expect((await d.sandboxTransfers(ref)).map((leg) => leg.direction)).toEqual(["DEBIT"]);
    await page.close();
  });
});
