import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { armed, expectAccessible, launchBrowser, signedIn as signedInPage } from "../support/browser";
import { newRef, resetDashboard, SETTLEMENT, TREASURY, type Dashboard } from "../support/dashboard";

/**
 * Four eyes in real browsers, each person in a browser context of their own (own cookies,
 * own session): ops asks for a 20,000 USD transfer, the approver sees it counted in the
 * navigation and described in words on the Approvals page, approves it; it is sent once and
 * completes, ops is told, Activity's audit trail shows each step and the chain verifies.
 * Then a rejection, whose reason is required, kept and shown.
 */

/** How long a transfer stays PENDING on the service's clock: until the test moves it past. */
const TRANSFER_SETTLE_MS = 60_000;

let d: Dashboard;
let browser: Browser;
beforeAll(async () => {
  // An empty database: the navigation's badge counts every pending approval, all of them this file's.
  [d, browser] = await Promise.all([
    resetDashboard({ env: { SANDBOX_TRANSFER_SETTLE_MS: String(TRANSFER_SETTLE_MS) } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

const signedIn = (email: string) => signedInPage(browser, d.url, email, 1440);

/** ops asks from their own browser session, as the transfer form does: the create answers 202. */
async function askForTransfer(page: Page, ref: string, amount: string) {
  const res = await page.evaluate(
    async (body) => {
      const r = await fetch("/api/v2/transfer/internal", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: await r.json() };
    },
    { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "USD", amount, ref_id: ref },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.approval as { id: string };
}

const navCount = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByTestId("approvals-count");
const card = (page: Page, id: string) => page.locator(`[data-approval-id="${id}"]`);

async function openApprovals(page: Page, tab?: string) {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /Approvals/ })
    .click();
  await page.waitForURL(/\/approvals/);
  if (tab) await page.getByRole("tab", { name: tab }).click();
}

describe("four eyes in the browser", () => {
  let ops: Page;
  let approver: Page;
  beforeAll(async () => {
    [ops, approver] = await Promise.all([signedIn("ops@example.com"), signedIn("approver@example.com")]);
  });

  it("ops asks for 20,000 USD, another person approves it, it is sent once, completes, and every step is audited", async () => {
    expect(await navCount(approver).count()).toBe(0);
    const ref = newRef("e2e-four-eyes");
    const approval = await askForTransfer(ops, ref, "20000");
    expect(await d.sandboxTransfers(ref)).toEqual([]);

    // The requester sees their own request waiting, may withdraw it, and is not offered Approve.
    await openApprovals(ops);
    const own = card(ops, approval.id);
    await expect.poll(() => own.count(), { timeout: 10_000 }).toBe(1);
    expect(await own.getByRole("button", { name: /Approve/ }).count()).toBe(0);
    expect(await own.getByRole("button", { name: "Withdraw request" }).count()).toBe(1);

    // The approver's navigation counts it within a poll, and the inbox states it in words.
    await expect.poll(() => navCount(approver).textContent(), { timeout: 10_000 }).toMatch(/^1/);
    await openApprovals(approver);
    const inbox = card(approver, approval.id);
    await inbox.waitFor();
    expect(await inbox.getByTestId("approval-sentence").textContent()).toBe(
      "Move 20,000.00 USD from Treasury to Settlement.",
    );
    // One word for who asked, on the card and in its history.
    expect(await inbox.textContent()).toContain("Requested by Oakley Ops (ops@example.com, ops)");
    expect(await inbox.textContent()).not.toContain("Asked by");
    const countdown = inbox.getByTestId("approval-countdown");
    expect(await countdown.textContent()).toMatch(/Expires in (1 h 59 min|2 h 00 min)/);
    await expectAccessible(approver, "the Approvals page");

    // Past the 10,000 USD rule: Approve, once armed, asks first with the request restated.
    await (await armed(inbox.getByRole("button", { name: "Approve and send" }))).click();
    const question = inbox.getByRole("group", { name: "Approve and send 20,000.00 USD from Treasury to Settlement?" });
    await (await armed(question.getByRole("button", { name: "Confirm", exact: true }))).click();
    // Decided: it stays in its place, saying the outcome, until dismissed; then it is under Approved with its history.
    await expect
      .poll(() => inbox.getByTestId("approval-result").textContent(), { timeout: 10_000 })
      .toMatch(/^Approved and sent: transfer (PENDING|COMPLETED)$/);
    await expect.poll(() => navCount(approver).count(), { timeout: 10_000 }).toBe(0);
    await inbox.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => inbox.count()).toBe(0);
    await approver.getByRole("tab", { name: "Approved" }).click();
    const decided = card(approver, approval.id);
    await decided.waitFor();
    const history = await decided.getByTestId("approval-history").textContent();
    expect(history).toContain("Approved by approver@example.com (approver)");
    expect(history).toMatch(/Approved and sent: transfer (PENDING|COMPLETED)/);

    // Sent exactly once: one journal entry, one transfer (the service lists its DEBIT leg by our ref_id).
    const legs = await d.sandboxTransfers(ref);
    expect(legs.map((l) => l.direction)).toEqual(["DEBIT"]);
    expect((await d.journal(ref)).map((e) => [e.kind, e.status, e.user_email])).toEqual([
      ["transfer", "succeeded", "ops@example.com"],
    ]);

    // ops is told, wherever they are in the dashboard.
    await expect
      .poll(() => ops.getByTestId("toast").allTextContents(), { timeout: 10_000 })
      .toContainEqual(
        expect.stringContaining("Your transfer of 20,000.00 USD from Treasury to Settlement was approved and sent"),
      );

    // It appears completed on the Transfers page of both people, once the service's clock has
    // moved past its settling time.
    await d.control!.advance(TRANSFER_SETTLE_MS);
    const groupId = (legs[0] as unknown as { group_id: string }).group_id;
    for (const page of [approver, ops]) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transfers" }).click();
      const row = page
        .getByRole("table", { name: /Transfers/ })
        .locator("tr", { has: page.locator(`[title="${groupId}"]`) });
      await expect.poll(() => row.textContent()).toMatch(/COMPLETED/);
      expect(await row.textContent()).toContain("20,000.00 USD");
    }

    // Activity's audit trail (an admin's) shows each step, and the chain verifies.
    const admin = await signedIn("admin@example.com");
    await admin.goto(`${d.url}/activity?view=audit`);
    const trail = admin.getByRole("table", { name: /Audit trail/ });
    await expect.poll(() => trail.locator("tbody tr").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const subjects = [approval.id, ref];
    const steps = async () =>
      (
        await trail
          .locator("tbody tr")
          .filter({ has: admin.locator(subjects.map((s) => `[title="${s}"]`).join(", ")) })
          .allTextContents()
      ).join("\n");
    for (const [event, who] of <[string, string][]>[
      ["Approval requested", "ops@example.com"],
      ["Approved", "approver@example.com"],
      ["Create requested", "ops@example.com"],
      ["Create succeeded", "ops@example.com"],
    ]) {
      await expect.poll(steps, { timeout: 10_000 }).toMatch(new RegExp(`${event}[\\s\\S]*?${who.replace(".", "\\.")}`));
    }
    await admin.getByRole("button", { name: "Verify chain" }).click();
    await expect
      .poll(() => admin.getByTestId("audit-verify").textContent())
      .toMatch(/Chain intact: \d+ entries verified/);
    expect((await d.as.admin.call("GET", "/api/audit/verify")).body).toMatchObject({ ok: true });
    await expectAccessible(admin, "the audit trail");
    await admin.context().close();
  });

  it("a rejection needs a reason: refused empty on its field, then kept, shown, and never sent", async () => {
    const ref = newRef("e2e-reject");
    const approval = await askForTransfer(ops, ref, "21000");
    await openApprovals(approver);
    const inbox = card(approver, approval.id);
    await expect.poll(() => inbox.count(), { timeout: 10_000 }).toBe(1);
    const rejects: string[] = [];
    approver.on("request", (r) => r.url().endsWith("/reject") && rejects.push(r.url()));

    await inbox.getByRole("button", { name: "Reject…" }).click();
    const form = inbox.getByRole("form", { name: "Reject request" });
    await form.getByRole("button", { name: "Reject request" }).click();
    const reason = form.getByLabel("Reason for rejecting");
    expect(await reason.getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByRole("alert").textContent()).toMatch(/Say why you reject this request/);
    expect(rejects).toEqual([]);

    await reason.fill("Over the desk's budget for the week");
    await form.getByRole("button", { name: "Reject request" }).click();
    await expect
      .poll(() => inbox.getByTestId("approval-result").textContent(), { timeout: 10_000 })
      .toBe("Rejected by approver@example.com: Over the desk's budget for the week");
    expect(rejects).toHaveLength(1);
    await inbox.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => inbox.count()).toBe(0);

    await approver.getByRole("tab", { name: "Rejected" }).click();
    const decided = card(approver, approval.id);
    await decided.waitFor();
    expect(await decided.getByTestId("approval-history").textContent()).toMatch(
      /Rejected by approver@example\.com .*Over the desk's budget for the week/,
    );
    await expect
      .poll(() => ops.getByTestId("toast").allTextContents(), { timeout: 10_000 })
      .toContainEqual(
        expect.stringContaining(
          "Your transfer of 21,000.00 USD from Treasury to Settlement was rejected by approver@example.com: Over the desk's budget for the week",
        ),
      );
    expect(await d.sandboxTransfers(ref)).toEqual([]);
    expect(await d.journal(ref)).toEqual([]);
  });

  it("the requester withdraws their own request; it is never sent", async () => {
    const ref = newRef("e2e-withdraw");
    const approval = await askForTransfer(ops, ref, "15000");
    await openApprovals(ops);
    const own = card(ops, approval.id);
    await expect.poll(() => own.count(), { timeout: 10_000 }).toBe(1);
    await own.getByRole("button", { name: "Withdraw request" }).click();
    await expect
      .poll(() => own.getByTestId("approval-result").textContent(), { timeout: 10_000 })
      .toBe("Withdrawn by ops@example.com: never sent");
    await own.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => own.count()).toBe(0);
    await ops.getByRole("tab", { name: "Withdrawn" }).click();
    await card(ops, approval.id).waitFor();
    expect(await card(ops, approval.id).getByTestId("approval-history").textContent()).toContain(
      "Withdrawn by ops@example.com",
    );
    expect(await d.sandboxTransfers(ref)).toEqual([]);
  });
});

describe("the Policies page", () => {
  // An admin's form (a refused value on its field, a loosening asked for approval, a tightening
  // saved at once) is the components project's (test/components/policy-editor.test.tsx); its
  // page is scanned at each width in its visit (visits.test.ts).
  it("is not offered to other roles: no link, and the page says who sets it", async () => {
    const viewer = await signedIn("viewer@example.com");
    expect(await viewer.getByRole("link", { name: "Policies" }).count()).toBe(0);
    await viewer.goto(`${d.url}/policies`);
    expect(await viewer.getByText("set by an admin").count()).toBe(1);
    await viewer.context().close();
  });
});
