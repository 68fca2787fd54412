import type { Browser, BrowserContextOptions, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { armed, expectNoSidewaysScroll, keptPage, launchBrowser, screenshot, signInAs } from "../support/browser";
import {
  eventually,
  newRef,
  resetDashboard,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type Client,
  type Dashboard,
} from "../support/dashboard";
import { RESERVE } from "../support/requests";

/**
 * Issue 20, the approver's findings, at the sizes where they were seen (a laptop's 1280×800, a
 * phone's 390×844): a decision never moves another request's button under the pointer and says
 * its outcome in place; each card shows the market, the funds and the requester's day; the
 * held create's own card says what waits and turns green once sent; one notice per cancel, never
 * over the next Cancel on a phone; buttons a finger can hit; who approved, in the records. And a
 * batch of transfers held for one approval of the whole (issue 27): its card says what it sends,
 * from whom, against what each sender has, and what came of approving it.
 */

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let d: Dashboard;
let browser: Browser;
beforeAll(async () => {
  // An empty database, the market maker off: every request waiting and every quote is this file's.
  [d, browser] = await Promise.all([resetDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await d?.dispose();
});

async function signedIn(
  email: string,
  viewport = LAPTOP,
  options: Pick<BrowserContextOptions, "colorScheme"> = {},
  path = "/orders",
): Promise<Page> {
  const page = await keptPage(browser, viewport);
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  await signInAs(page, d.url, email, undefined, path);
  return page;
}

/** A create asked as the person (their own session, over HTTP, as the forms send it): held (202). */
async function ask(who: Client, path: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await who.call("POST", path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.approval;
}

const transfer = (ref: string, amount: string) => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount,
  ref_id: ref,
  metadata: { test: ref },
});

/** 2 BTC at 1,000 USD: far under the market, worth over 100,000 USD at its prices, held for an approver. */
const farOrder = (ref: string) => ({
  market: "BTCUSD",
  side: "BUY",
  type: "LIMIT",
  price: "1000.00",
  base_amount: "2",
  ref_id: ref,
  metadata: { test: ref },
});

const card = (page: Page, id: string) => page.locator(`[data-approval-id="${id}"]`);

/** An approver signed in straight onto the Approvals page. */
async function approverOnApprovals(
  viewport = LAPTOP,
  options: Pick<BrowserContextOptions, "colorScheme"> = {},
): Promise<Page> {
  const page = await signedIn("approver@example.com", viewport, options, "/approvals");
  await page.getByRole("tabpanel").waitFor();
  return page;
}

/** The approver's context once read (no "Reading…" left), so the card's height is settled. */
async function contextRead(c: Locator) {
  const context = c.getByTestId("approver-context");
  // Read, and the profile named: its name arrives with the page's own read of the profiles.
  await expect.poll(() => context.textContent(), { timeout: 10_000 }).not.toMatch(/Reading…|[0-9a-f]{8}-[0-9a-f]{4}-/);
  return context;
}

/** The element the pointer is over at (x, y): its card and the button it is in, if any. */
const underPointer = (page: Page, x: number, y: number) =>
  page.evaluate(
    ([px, py]) => {
      const el = document.elementFromPoint(px, py);
      return {
        card: el?.closest("[data-approval-id]")?.getAttribute("data-approval-id") ?? null,
        button: el?.closest("button")?.textContent ?? null,
      };
    },
    [x, y] as const,
  );

const intersects = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("approving cannot be misdirected (1280×800)", () => {
  it("a decided card keeps its slot and says the outcome; no other request's button comes under the pointer", async () => {
    const [refA, refB] = [newRef("e2e-slot-a"), newRef("e2e-slot-b")];
    // Two 20,000 USD transfers, as in the walk that found it.
    await ask(d.as.ops, "/api/v2/transfer/internal", transfer(refA, "20000"));
    await ask(d.as.ops, "/api/v2/transfer/internal", transfer(refB, "20000.50"));
    const approver = await approverOnApprovals();
    const cards = approver.getByTestId("approval");
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const [first, second] = await Promise.all([0, 1].map((i) => cards.nth(i).getAttribute("data-approval-id")));
    const [top, next] = [card(approver, first!), card(approver, second!)];
    await Promise.all([contextRead(top), contextRead(next)]);

    const [topBox, nextButtonBox] = [
      await top.boundingBox(),
      await next.getByRole("button", { name: "Approve and send" }).boundingBox(),
    ];
    // Past the rule's threshold: Approve, once armed, asks in its own place, then Confirm decides.
    await (await armed(top.getByRole("button", { name: "Approve and send" }))).click();
    const confirm = await armed(
      top.getByTestId("approve-confirm").getByRole("button", { name: "Confirm", exact: true }),
    );
    expect(
      await next.getByRole("button", { name: "Approve and send" }).boundingBox(),
      "the question moves nothing",
    ).toEqual(nextButtonBox);
    const box = (await confirm.boundingBox())!;
    // The list read again without the approved request.
    const reread = approver.waitForResponse(
      async (r) => r.url().includes("/api/approvals?status=PENDING") && !(await r.text()).includes(first!),
    );
    await confirm.click();
    await reread;

    const result = top.getByTestId("approval-result");
    await expect
      .poll(() => result.textContent(), { timeout: 10_000 })
      .toMatch(/^Approved and sent: transfer (PENDING|COMPLETED)$/);
    expect(await top.textContent(), "the decision counted").toContain("1 so far.");
    await expect
      .poll(() => approver.getByTestId("toast").allTextContents())
      .toContainEqual(expect.stringMatching(/Approved and sent: transfer/));
    // The list has read the requests again without it: the card is still in its slot.
    await expect.poll(() => top.getByRole("button", { name: "Dismiss" }).count()).toBe(1);
    expect(await top.boundingBox()).toEqual(topBox);
    expect(await next.getByRole("button", { name: "Approve and send" }).boundingBox()).toEqual(nextButtonBox);
    expect(await underPointer(approver, box.x + box.width / 2, box.y + box.height / 2)).toEqual({
      card: first,
      button: null,
    });
    // Only the one approved was sent.
    const sentRefs = [(await d.sandboxTransfers(refA)).length, (await d.sandboxTransfers(refB)).length].sort();
    expect(sentRefs).toEqual([0, 1]);

    // Dismissed, it goes; the other waits, untouched.
    await top.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => top.count()).toBe(0);
    expect(await next.getByRole("button", { name: "Approve and send" }).isEnabled()).toBe(true);
    await approver.context().close();
  });
});

describe("the approver sees what they approve", () => {
  let held: { id: string };
  beforeAll(async () => {
    // A BTCUSD book around 65,000 (bid 64,000, ask 66,000): the test service starts with none.
    for (const [side, price] of [
      ["BUY", "64000.00"],
      ["SELL", "66000.00"],
    ] as const) {
      const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, {
        market: "BTCUSD",
        side,
        type: "LIMIT",
        price,
        base_amount: "0.01",
        ref_id: newRef("book"),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    held = await ask(d.as.trader, `/api/v2/profiles/${TRADING}/orders`, farOrder(newRef("e2e-far")));
  });

  for (const [size, viewport] of [
    ["1280×800", LAPTOP],
    ["390×844", PHONE],
  ] as const) {
    it(`each card shows the mid and the limit's distance, the funds, and the requester's day (${size})`, async () => {
      const approver = await approverOnApprovals(viewport);
      const c = card(approver, held.id);
      await c.waitFor({ timeout: 10_000 });
      await contextRead(c);
      expect(await c.getByTestId("context-market").textContent()).toMatch(
        /^BTC\/USD mid 65,000\.00 \(bid 64,000\.00, ask 66,000\.00\)/,
      );
      expect(await c.getByTestId("context-distance").textContent()).toBe("Limit 1,000.00: 98.46% below the mid");
      expect(await c.getByTestId("context-funds").textContent()).toMatch(
        /^Trading has [\d,]+\.\d{2} USD available; this needs 2,000\.00 USD\.$/,
      );
      expect(await c.getByTestId("context-sends").textContent()).toMatch(
        /^trader@example\.com: [\d,]+\.\d{2} USD of orders sent or waiting today, of a 10,000,000\.00 USD daily limit; [\d,]+\.\d{2} USD with this one\./,
      );
      await expectNoSidewaysScroll(approver, `the Approvals page at ${size}`);
      await approver.context().close();
    });
  }

  it("the context is read-only and for approvers: anyone else is refused", async () => {
    const path = `/api/approvals/${held.id}/context`;
    const ok = await d.as.approver.call("GET", path);
    expect(ok.status).toBe(200);
    expect(ok.body.spend).toMatchObject({ profile_id: TRADING, asset: "USD", amount: "2000" });
    for (const role of ["trader", "ops", "viewer"] as const) {
      expect((await d.as[role].call("GET", path)).status, role).toBe(403);
    }
    expect((await d.as.approver.call("POST", path)).status).toBe(405);
  });

  it("a policy request shows only what changes, before → after", async () => {
    const policy = (await d.as.admin.call("GET", "/api/policies")).body.policy;
    const looser = {
      ...policy,
      approval_rules: policy.approval_rules.map((r: { kind: string }) =>
        r.kind === "transfer" ? { ...r, threshold_usd: "12500" } : r,
      ),
    };
    const res = await d.as.admin.call("PUT", "/api/policies", looser);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const approver = await approverOnApprovals();
    const c = card(approver, res.body.approval.id);
    await c.waitFor({ timeout: 10_000 });
    expect(await c.getByTestId("policy-changes").locator("li").allTextContents()).toEqual([
      "Approval of transfers: from 10,000.00 USD: 1 approval, open 120 min → from 12,500.00 USD: 1 approval, open 120 min (loosens)",
    ]);
    expect(await c.getByTestId("approver-context").count()).toBe(0);
    // Rejected, so the rest of the file keeps the policy as it was.
    await c.getByRole("button", { name: "Reject…" }).click();
    await c.getByLabel("Reason for rejecting").fill("Not this week");
    await c.getByRole("button", { name: "Reject request" }).click();
    await expect.poll(() => c.getByTestId("approval-result").textContent()).toMatch(/^Rejected by approver/);
    await approver.context().close();
  });

  it("approvers, ops and viewers get the market on /orders", async () => {
    for (const email of ["approver@example.com", "ops@example.com", "viewer@example.com"]) {
      const page = await signedIn(email);
      const watch = page.getByTestId("market-watch");
      await watch.waitFor();
      await expect.poll(() => watch.getByTestId("depth-ladder").count(), { timeout: 15_000 }).toBe(1);
      await watch.getByLabel("Market").selectOption("ETHUSD");
      await expect.poll(() => watch.getByRole("heading", { name: "ETH/USD market" }).count()).toBe(1);
      await page.context().close();
    }
  });
});

describe("the held create's own card (1280×800, light and dark)", () => {
  it('says what waits, was asked with "Submit for approval", and turns the success colour once sent, in each theme', async () => {
    const ops = await signedIn("ops@example.com", LAPTOP, { colorScheme: "light" }, "/transfers");
    const form = ops.getByRole("form", { name: "Internal transfer" });
    await expect.poll(() => form.getByLabel("From profile").locator("option").count()).toBeGreaterThan(1);
    await form.getByLabel("From profile").selectOption({ label: "Treasury" });
    await form.getByLabel("To profile").selectOption({ label: "Settlement" });
    await form.getByLabel("Asset").selectOption("USD");
    const amount = "20000.25";
    await form.getByLabel("Amount", { exact: true }).fill(amount);
    await form.getByRole("button", { name: "Review transfer" }).click();
    await expect.poll(() => form.getByTestId("needs-approval").count()).toBe(1);
    const submit = form.getByRole("button", { name: "Submit for approval" });
    expect(await form.getByRole("button", { name: "Confirm and send" }).count()).toBe(0);
    await expect.poll(() => submit.getAttribute("data-armed")).toBe("true");
    await submit.click();

    const held = form.getByTestId("awaiting-approval");
    await expect.poll(() => held.getAttribute("data-status"), { timeout: 10_000 }).toBe("PENDING");
    expect(await held.getByTestId("approval-what").textContent()).toBe(
      `Move ${Number(amount).toLocaleString("en-US", { minimumFractionDigits: 2 })} USD from Treasury to Settlement.`,
    );
    const colourIn = async (colorScheme: "light" | "dark") => {
      await ops.emulateMedia({ colorScheme });
      return held.evaluate((el) => getComputedStyle(el).backgroundColor);
    };
    const waiting = { light: await colourIn("light"), dark: await colourIn("dark") };
    const id = (await held.locator("p.font-mono").innerText()).replace("approval ", "");
    expect((await d.as.approver.call("POST", `/api/approvals/${id}/approve`)).status).toBe(200);
    await expect.poll(() => held.getAttribute("data-status"), { timeout: 10_000 }).toBe("APPROVED");
    await expect.poll(() => held.getByTestId("transfer-result").count()).toBe(1);
    expect(await held.getAttribute("class")).toContain("bg-buy-soft");
    for (const colorScheme of ["light", "dark"] as const) {
      expect(await colourIn(colorScheme), colorScheme).not.toBe(waiting[colorScheme]);
      await screenshot(ops, `awaiting-approval-approved-${colorScheme}`);
    }

    // Approval in the records: the transfer's row names who approved it, beside who asked.
    await ops.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transfers" }).click();
    const legs = await d.sandboxTransfers(await refOfApproval(id));
    const groupId = (legs[0] as unknown as { group_id: string }).group_id;
    const row = ops
      .getByRole("table", { name: /Transfers/ })
      .locator("tr", { has: ops.locator(`[title="${groupId}"]`) });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("ops@example.com");
    await expect
      .poll(() => row.getByTestId("approved-by").textContent())
      .toMatch(/^approved by approver@example\.com, /);
    await ops.context().close();
  });
});

async function refOfApproval(id: string): Promise<string> {
  const res = await d.as.approver.call("GET", `/api/approvals/${id}`);
  return res.body.approval.request.ref_id;
}

describe("approval in an order's details (1280×800)", () => {
  it("an approved order's details say who approved it and when, beside who submitted it", async () => {
    const ref = newRef("e2e-approved-order");
    const held = await ask(d.as.trader, `/api/v2/profiles/${TRADING}/orders`, { ...farOrder(ref), base_amount: "3" });
    expect((await d.as.approver.call("POST", `/api/approvals/${held.id}/approve`)).status).toBe(200);
    const [order] = await d.sandboxOrders(ref);
    const trader = await signedIn("trader@example.com");
    const row = trader.locator("tr[data-row]", { has: trader.locator(`[title="${order!.id}"]`) });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole("button", { name: /Show the details of order/ }).click();
    const details = trader.locator(`#order-details-${order!.id}`);
    await expect.poll(() => details.textContent()).toContain("trader@example.com (trader)");
    expect(await details.getByTestId("approved-by").textContent()).toMatch(/^approved by approver@example\.com, /);
    await trader.context().close();
  });
});

describe("one notice per cancel, never over the next Cancel on a phone; buttons a finger can hit", () => {
  async function openOrders(count: number, prefix: string) {
    for (let i = 0; i < count; i++) {
      const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, {
        market: "ETHUSD",
        side: "BUY",
        type: "LIMIT",
        price: "100.00",
        base_amount: `0.0${i + 1}`,
        ref_id: newRef(prefix),
        metadata: { test: prefix },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }

  for (const [size, viewport, least] of [
    ["390×844", PHONE, 44],
    ["1280×800", LAPTOP, 32],
  ] as const) {
    it(`cancel at ${size}: one notice, clear of the next order's Cancel; Cancel and Keep at least ${least} px`, async () => {
      await openOrders(3, `e2e-toast-${viewport.width}`);
      const page = await signedIn("trader@example.com", viewport);
      const cancels = page.getByRole("button", { name: /^Cancel order / });
      await expect.poll(() => cancels.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
      const first = cancels.first();
      const label = (await first.getAttribute("aria-label"))!;
      const id8 = label.split(" ").at(-1)!;
      await first.scrollIntoViewIfNeeded();
      expect((await first.boundingBox())!.height).toBeGreaterThanOrEqual(least);
      await first.click();
      const confirm = page.getByRole("group", {
        name: `Confirm cancel of order ${label.replace("Cancel order ", "")}`,
      });
      for (const name of ["Keep", "Cancel order"]) {
        expect((await confirm.getByRole("button", { name, exact: true }).boundingBox())!.height).toBeGreaterThanOrEqual(
          least,
        );
      }
      await confirm.getByRole("button", { name: "Cancel order", exact: true }).click();
      const toasts = page.getByTestId("toast");
      await expect
        .poll(() => toasts.allTextContents(), { timeout: 15_000 })
        .toEqual([expect.stringContaining(`Order ${id8} cancelled`)]);
      const nextCancel = page.getByRole("button", { name: /^Cancel order / }).first();
      expect(await nextCancel.getAttribute("aria-label")).not.toBe(label);
      const toastBox = (await toasts.first().boundingBox())!;
      expect(intersects(toastBox, (await nextCancel.boundingBox())!), "the notice covers the next Cancel").toBe(false);
      await page.context().close();
    });
  }

  it("the Approvals page's buttons are 44 px tall on a phone (390×844)", async () => {
    const held = await ask(d.as.ops, "/api/v2/transfer/internal", transfer(newRef("e2e-phone"), "30000"));
    const approver = await approverOnApprovals(PHONE);
    const c = card(approver, held.id);
    await c.waitFor({ timeout: 10_000 });
    for (const name of ["Approve and send", "Reject…"]) {
      expect((await c.getByRole("button", { name }).boundingBox())!.height, name).toBeGreaterThanOrEqual(44);
    }
    // The question in their place, too.
    await (await armed(c.getByRole("button", { name: "Approve and send" }))).click();
    for (const name of ["Confirm", "Cancel"]) {
      const button = c.getByTestId("approve-confirm").getByRole("button", { name, exact: true });
      expect((await button.boundingBox())!.height, name).toBeGreaterThanOrEqual(44);
    }
    for (const tab of await approver.getByRole("tab").all()) {
      expect((await tab.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    await approver.context().close();
  });
});

describe("screenshots of the Approvals page", () => {
  // Each width and each theme once: light at 1280, dark at 390.
  it("at 1280 (light) and 390 (dark): a waiting order with its context, and a decided card kept in place", async () => {
    const decided = await ask(d.as.ops, "/api/v2/transfer/internal", transfer(newRef("e2e-shot-a"), "25000"));
    await ask(d.as.ops, "/api/v2/transfer/internal", transfer(newRef("e2e-shot-b"), "26000"));
    for (const [viewport, colorScheme] of [
      [LAPTOP, "light"],
      [PHONE, "dark"],
    ] as const) {
      const approver = await approverOnApprovals(viewport, { colorScheme });
      const cards = approver.getByTestId("approval");
      await expect.poll(() => cards.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      for (const c of await cards.all())
        if ((await c.getByTestId("approver-context").count()) > 0) await contextRead(c);
      if (viewport === LAPTOP) {
        const c = card(approver, decided.id);
        await (await armed(c.getByRole("button", { name: "Approve and send" }))).click();
        await (await armed(c.getByRole("button", { name: "Confirm", exact: true }))).click();
        await expect.poll(() => card(approver, decided.id).getByTestId("approval-result").count()).toBe(1);
      }
      await expectNoSidewaysScroll(approver, `the Approvals page at ${viewport.width} px, ${colorScheme}`);
      await screenshot(approver, `approvals-${viewport.width}-${colorScheme}`);
      await approver.context().close();
    }
  });
});

describe("a batch of transfers held for one approval of the whole (1280×800 and 390×844)", () => {
  /** One row of a batch, told apart from every other row by its note (no repeat question). */
  const row = (from: string, to: string, amount: string) => ({
    from_profile_id: from,
    to_profile_id: to,
    asset: "USD",
    amount,
    metadata: { note: newRef("e2e-batch-row") },
  });

  /** Ops POSTs the batch as JSON; past the 10,000 USD transfer rule it waits for one approval (202). */
  async function askBatch(ref: string, transfers: ReturnType<typeof row>[]) {
    const res = await d.as.ops.call("POST", "/api/batches", { ref_id: ref, transfers });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.approval.kind).toBe("batch");
    return res.body as { approval: { id: string }; batch: { id: string; status: string } };
  }

  /** The approver on the Approvals page with only batches shown (the Kind filter). */
  const approverOnBatches = (viewport = LAPTOP) =>
    signedIn("approver@example.com", viewport, {}, "/approvals?kind=batch").then(async (page) => {
      await page.getByRole("tabpanel").waitFor();
      return page;
    });

  /** The card fits its width: nothing in it is cut off or scrolls sideways, nor the page. */
  async function fits(page: Page, c: Locator, what: string) {
    await expectNoSidewaysScroll(page, what);
    const { scrollWidth, clientWidth } = await c.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth, `${what}: the card is wider than its box`).toBeLessThanOrEqual(clientWidth);
  }

  it("the approver's card: totals, each sender's funds, the largest rows, the requester's day; approved, its sending starts", async () => {
    const ref = newRef("e2e-batch");
    // 18,000.75 USD in three rows: past the rule as a whole, none of them alone.
    const { approval, batch } = await askBatch(ref, [
      row(TREASURY, SETTLEMENT, "6000"),
      row(TREASURY, RESERVE, "6000.50"),
      row(SETTLEMENT, TRADING, "6000.25"),
    ]);
    expect(batch.status).toBe("AWAITING_APPROVAL");

    // The phone first, only looking; then the laptop, where it is approved.
    for (const [size, viewport] of [
      ["390×844", PHONE],
      ["1280×800", LAPTOP],
    ] as const) {
      const approver = await approverOnBatches(viewport);
      const c = card(approver, approval.id);
      await c.waitFor({ timeout: 10_000 });
      await contextRead(c);
      expect(await c.getByRole("heading").first().textContent()).toMatch(
        /^Batch of 3 internal transfers, about 18,000\.75 USD/,
      );
      expect(await c.getByTestId("approval-sentence").textContent()).toBe(
        "Send a batch of 3 internal transfers, 18,000.75 USD in all, from Treasury and Settlement.",
      );
      expect(await c.getByTestId("batch-ref").textContent()).toBe(`ref_id ${ref}`);
      expect(await c.getByTestId("batch-totals").locator("li").allTextContents()).toEqual(["18,000.75 USD"]);
      expect(await c.getByTestId("batch-progress").textContent()).toBe("Nothing is sent before it is approved.");
      // The largest rows by worth, profiles by nickname.
      const largest = c.getByTestId("batch-largest");
      expect(await largest.locator("caption").textContent()).toBe("Its 3 transfers");
      const cells = await Promise.all(
        (await largest.locator("tbody tr").all()).map((tr) => tr.locator("td").allTextContents()),
      );
      expect(cells).toEqual([
        ["2", "Treasury → Operations reserve", "6,000.50 USD", "6,000.50"],
        ["3", "Settlement → Trading", "6,000.25 USD", "6,000.25"],
        ["1", "Treasury → Settlement", "6,000.00 USD", "6,000.00"],
      ]);
      // Each sender's part beside what it has now: enough, so nothing is marked short.
      const funds = c.getByTestId("batch-funds").locator("li");
      expect(await funds.allTextContents()).toEqual([
        expect.stringMatching(/^Treasury sends 12,000\.50 USD; has [\d,]+\.\d{2} USD available\.$/),
        expect.stringMatching(/^Settlement sends 6,000\.25 USD; has [\d,]+\.\d{2} USD available\.$/),
      ]);
      expect(await c.locator('[data-short="true"]').count()).toBe(0);
      expect(await c.getByTestId("context-sends").textContent()).toMatch(
        /^ops@example\.com: [\d,]+\.\d{2} USD of transfers sent or waiting today, of a 1,000,000\.00 USD daily limit; [\d,]+\.\d{2} USD with this batch\./,
      );
      expect(await c.getByTestId("batch-link").getAttribute("href")).toBe(`/batches?batch=${batch.id}`);
      expect(await c.getByTestId("decision-terms").textContent()).toBe(
        `Approving sends 3 internal transfers totalling 18,000.75 USD from Treasury and Settlement (batch ${ref}).`,
      );
      await fits(approver, c, `a batch's card at ${size}`);
      await screenshot(approver, `batch-card-${viewport.width}`);
      if (viewport === PHONE) {
        await approver.context().close();
        continue;
      }

      // Past the rule's threshold: the question restates it, then Confirm sends it.
      await (await armed(c.getByRole("button", { name: "Approve and send" }))).click();
      expect(await c.getByTestId("approve-question").textContent()).toBe(
        `Approve and send 3 internal transfers totalling 18,000.75 USD from Treasury and Settlement (batch ${ref})?`,
      );
      await (
        await armed(c.getByTestId("approve-confirm").getByRole("button", { name: "Confirm", exact: true }))
      ).click();
      await expect
        .poll(() => c.getByTestId("approval-result").textContent(), { timeout: 10_000 })
        .toBe("Approved; sending started: its 3 internal transfers go one by one");
      await expect
        .poll(() => approver.getByTestId("toast").allTextContents())
        .toContainEqual(expect.stringContaining("Approved; sending started"));
      // The batch as it stands now, on the card: its rows sent one by one, then done.
      await expect
        .poll(() => c.getByTestId("batch-progress").textContent(), { timeout: 30_000 })
        .toBe("Completed: all 3 sent.");
      await fits(approver, c, "an approved batch's card at 1280×800");
      await screenshot(approver, "batch-card-approved-1280");
      // Its link opens the batch on the Batches page, whole, for a reader too.
      await c.getByTestId("batch-link").click();
      await expect
        .poll(() => approver.getByTestId("batch-status").getAttribute("data-status"), { timeout: 10_000 })
        .toBe("COMPLETED");
      expect(await approver.getByTestId("row-status").count()).toBe(3);
      await approver.context().close();
    }

    // Sent row by row: every row reaches the service once, under the batch's own ref_ids.
    const done = await eventually(
      async () => {
        const res = await d.as.ops.call("GET", `/api/batches/${batch.id}`);
        return res.body.batch.status === "COMPLETED" ? res.body.batch : undefined;
      },
      30_000,
      "the batch sent whole",
      250,
    );
    expect(done.counts).toMatchObject({ sent: 3, failed: 0, skipped: 0 });
    for (const n of [1, 2, 3]) expect((await d.sandboxTransfers(`${ref}-${n}`)).length, `row ${n}`).toBe(1);
  });

  it("a sender short of funds by the time it is decided: marked on the card; approved, refused at send and nothing sent", async () => {
    const ref = newRef("e2e-batch-short");
    const { approval, batch } = await askBatch(ref, [row(RESERVE, TREASURY, "6000"), row(RESERVE, SETTLEMENT, "6000")]);
    // Meanwhile the reserve's money goes elsewhere (straight at the service): 5,000 USD are left.
    const balances = (await d.sandbox.call("GET", `/profiles/${RESERVE}/balances`)).body;
    const items = (Array.isArray(balances) ? balances : balances.items) as { asset: string; available: string }[];
    const available = items.find((b) => b.asset === "USD")!.available;
    const drain = (Number(available) - 5000).toFixed(2);
    const moved = await d.sandbox.call("POST", "/transfer/internal", {
      from_profile_id: RESERVE,
      to_profile_id: TREASURY,
      asset: "USD",
      amount: drain,
      ref_id: newRef("e2e-drain"),
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const approver = await approverOnBatches();
    const c = card(approver, approval.id);
    await c.waitFor({ timeout: 10_000 });
    await contextRead(c);
    const short = c.locator('[data-testid="batch-funds"] li[data-short="true"]');
    await expect.poll(() => short.count(), { timeout: 15_000 }).toBe(1);
    expect(await short.textContent()).toBe(
      "Operations reserve sends 12,000.00 USD; has 5,000.00 USD available: 7,000.00 USD short: the batch will be refused at send.",
    );
    expect(await short.evaluate((el) => getComputedStyle(el).fontWeight)).toBe("600");
    await fits(approver, c, "a short batch's card at 1280×800");
    await screenshot(approver, "batch-card-short-1280");

    await (await armed(c.getByRole("button", { name: "Approve and send" }))).click();
    await (await armed(c.getByTestId("approve-confirm").getByRole("button", { name: "Confirm", exact: true }))).click();
    await expect
      .poll(() => c.getByTestId("approval-result").textContent(), { timeout: 10_000 })
      .toBe(
        "Approved, not sent: checked again at send, the batch was refused: Operations reserve has 5,000.00 USD available; the batch sends 12,000.00 USD from it",
      );
    expect(await c.getByTestId("batch-progress").textContent()).toBe("None of it was sent.");
    await screenshot(approver, "batch-card-refused-1280");
    await approver.context().close();
    const after = (await d.as.ops.call("GET", `/api/batches/${batch.id}`)).body.batch;
    expect(after.status).toBe("REJECTED");
    expect(after.counts).toMatchObject({ sent: 0, skipped: 2 });
    for (const n of [1, 2]) expect(await d.sandboxTransfers(`${ref}-${n}`), `row ${n}`).toEqual([]);
  });
});

describe("a TWAP parent order held for one approval of all its children (1280×800)", () => {
  it("its card says the parent in the desk's words, links to its page; approved, it starts working", async () => {
    // A BTCUSD book around 65,000, this test's own.
    for (const [side, price] of [
      ["BUY", "64000.00"],
      ["SELL", "66000.00"],
    ] as const) {
      const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, {
        market: "BTCUSD",
        side,
        type: "LIMIT",
        price,
        base_amount: "0.01",
        ref_id: newRef("book"),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // 2 BTC capped at 66,500: worth over 100,000 USD, past the order rule, so held whole (202).
    const ref = newRef("e2e-twap");
    const res = await d.as.trader.call("POST", "/api/parent-orders", {
      ref_id: ref,
      profile_id: TRADING,
      market: "BTCUSD",
      side: "BUY",
      base_amount: "2",
      strategy: "TWAP",
      duration_seconds: 60,
      slices: 6,
      limit_price: "66500",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const { approval, parent_order: parent } = res.body as {
      approval: { id: string; kind: string };
      parent_order: { id: string };
    };
    expect(approval.kind).toBe("parent_order");

    const approver = await signedIn("approver@example.com", LAPTOP, {}, "/approvals?kind=parent_order");
    await approver.getByRole("tabpanel").waitFor();
    expect(await approver.locator('select option[value="parent_order"]').textContent()).toBe("Parent orders");
    const c = card(approver, approval.id);
    await c.waitFor({ timeout: 10_000 });
    await contextRead(c);
    expect(await c.getByRole("heading").first().textContent()).toMatch(/^TWAP parent order, about [\d,]+\.\d{2} USD/);
    expect(await c.getByTestId("approval-sentence").textContent()).toBe(
      "TWAP: Buy 2 BTC over 1 minute in 6 slices, never above 66,500.00 USD, from Trading.",
    );
    expect(await c.getByTestId("parent-order-progress").textContent()).toBe(
      "No child order is sent before it is approved.",
    );
    expect(await c.getByTestId("parent-order-link").getAttribute("href")).toBe(`/parent-orders/${parent.id}`);
    expect(await c.getByTestId("context-distance").textContent()).toMatch(/^Cap 66,500\.00: [\d.]+% above the mid$/);
    expect(await c.getByTestId("context-funds").textContent()).toMatch(
      /^Trading has [\d,]+\.\d{2} USD available; this needs 133,000\.00 USD at most, all of it filled at the cap/,
    );
    expect(await c.getByTestId("context-sends").textContent()).toMatch(
      /^trader@example\.com: [\d,]+\.\d{2} USD of orders sent or waiting today, .*; [\d,]+\.\d{2} USD with this parent order/,
    );
    const terms = "a TWAP order to buy 2 BTC over 1 minute in 6 slices, never above 66,500.00 USD, from Trading";
    expect(await c.getByTestId("decision-terms").textContent()).toBe(
      `Approving starts ${terms}: its children are sent one slice at a time, none past the cap.`,
    );
    await expectNoSidewaysScroll(approver, "a parent order's card at 1280×800");
    await screenshot(approver, "parent-order-card-1280");

    await (await armed(c.getByRole("button", { name: "Approve and start" }))).click();
    expect(await c.getByTestId("approve-question").textContent()).toBe(`Approve and start ${terms}?`);
    await (await armed(c.getByTestId("approve-confirm").getByRole("button", { name: "Confirm", exact: true }))).click();
    await expect
      .poll(() => c.getByTestId("approval-result").textContent(), { timeout: 10_000 })
      .toBe("Approved; the parent order started working: 6 slices over 1 minute");
    await expect
      .poll(() => c.getByTestId("parent-order-progress").textContent(), { timeout: 10_000 })
      .toMatch(/^(Working|Completed): [\d.,]+ BTC of 2 BTC filled/);
    await screenshot(approver, "parent-order-card-approved-1280");
    await approver.context().close();
    // Stopped here: the rest of its minute is not this test's.
    expect((await d.as.trader.call("POST", `/api/parent-orders/${parent.id}/cancel`)).status).toBe(200);
  });
});
