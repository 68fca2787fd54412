// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OrderTicket } from "@/components/orders/order-ticket";
import { TransferForm } from "@/components/transfers/transfer-form";
import type { InProcessDashboard } from "../support/dashboard";
import { armed, keptDashboard, renderAs, type RenderedAs } from "../support/components";
import { newRef, SETTLEMENT, TRADING, TREASURY } from "../support/requests";

/**
 * The review tells the whole outcome before anything is sent (issue 26): the back end's dry run
 * weighs the person's rolling 24 h total, so a small request that the total pushes past a rule
 * is said to wait for approval (the rule, the total, who may approve, until when), and its
 * button says "Submit for approval". A market order held so is said to take its price at approval.
 * Seen by a new user: "Worth about 120.00 USD" with "Confirm and send", then "Awaiting approval".
 * The forms as their pages render them; one in-process dashboard for the file, so each test
 * finds the totals the ones before it left, with the market maker off (a book of this file's own).
 */

type Scope = ReturnType<typeof within>;
let d: InProcessDashboard;
let page: RenderedAs | undefined;
beforeAll(async () => {
  d = await keptDashboard();
});
afterEach(async () => {
  await page?.close();
  page = undefined;
});
afterAll(async () => {
  await d?.dispose();
});
const user = userEvent.setup();
const field = (scope: Scope, label: string) => scope.getByLabelText(label, { exact: true, selector: "input, select" });

/** Ops's transfer form, Treasury to Settlement in USD. */
async function transferForm(): Promise<Scope> {
  page = await renderAs("ops", <TransferForm controlsLine={null} />, { dashboard: d });
  const form = within(await screen.findByRole("form", { name: "Internal transfer" }));
  await waitFor(() => expect(field(form, "From profile").querySelectorAll("option").length).toBeGreaterThan(1));
  await user.selectOptions(field(form, "From profile"), "Treasury");
  await user.selectOptions(field(form, "To profile"), "Settlement");
  await user.selectOptions(field(form, "Asset"), "USD");
  return form;
}

/** The controls' answer at review, once it has come: "send", "hold" or "refuse". */
const outcome = (scope: Scope, expected: string) =>
  waitFor(() => expect(scope.getByTestId("controls-note").getAttribute("data-outcome")).toBe(expected));
const sends = () => page!.writes().filter((w) => w.includes("/api/v2/"));

describe("the review weighs the rolling total before anything is sent", () => {
  it("says a 120 USD transfer will wait for approval once the day's total passes the rule, and submits it so", async () => {
    const form = await transferForm();
    // Before the total: sent at once, and the button says so.
    await user.type(field(form, "Amount"), "120");
    await user.click(form.getByRole("button", { name: "Review transfer" }));
    await outcome(form, "send");
    const note = form.getByTestId("controls-note").textContent;
    expect(note).toContain("Worth about 120.00 USD.");
    expect(note).toContain("It is sent at once: no approval is needed.");
    await armed(form.getByRole("button", { name: "Confirm and send" }));
    await user.click(form.getByRole("button", { name: "Edit" }));

    // 9,900 USD sent without approval by the same person elsewhere (a script, another tab).
    const sent = await d.as.ops.call("POST", "/api/v2/transfer/internal", {
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: "9900",
      ref_id: newRef("earlier"),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    await user.click(form.getByRole("button", { name: "Review transfer" }));
    await outcome(form, "hold");
    const held = form.getByTestId("needs-approval").textContent;
    expect(held).toContain("Needs approval by an approver before it is sent (transfers of 10,000.00 USD or more).");
    expect(held).toContain(
      "With this one, the transfers you sent without approval in the last 24 h come to 10,020.00 USD, past the 10,000.00 USD rule.",
    );
    expect(held).toMatch(/It waits for an approver or an admin other than you until \d{4}-\d\d-\d\d \d\d:\d\d/);
    expect(sends(), "the review sends nothing").toEqual([]);
    await user.click(await armed(form.getByRole("button", { name: "Submit for approval" })));
    await waitFor(() => expect(form.getByTestId("approval-status").textContent).toBe("Awaiting approval"));
    expect(sends()).toEqual(["POST /api/v2/transfer/internal"]);
  });

  it("says a small market sell held by the total takes its price when approved", async () => {
    // ETHUSD quoted 1,990 / 2,010 (a mid of 2,000) by the treasury, straight at the service.
    for (const [side, price] of [
      ["BUY", "1990.00"],
      ["SELL", "2010.00"],
    ] as const) {
      const res = await d.sandbox.call("POST", `/profiles/${TREASURY}/orders`, {
        market: "ETHUSD",
        side,
        type: "LIMIT",
        price,
        base_amount: "100",
        ref_id: newRef("book"),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // 99,800 USD of orders sent without approval: a bid resting under the mid, valued at the mid (49.9 × 2,000).
    const resting = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, {
      market: "ETHUSD",
      side: "BUY",
      type: "LIMIT",
      price: "1980.00",
      base_amount: "49.9",
      ref_id: newRef("resting"),
    });
    expect(resting.status, JSON.stringify(resting.body)).toBe(200);

    page = await renderAs("trader", <OrderTicket email="trader@example.com" controlsLine={null} />, { dashboard: d });
    const ticket = within(await screen.findByRole("form", { name: "Order ticket" }));
    await waitFor(() => expect(field(ticket, "Profile").querySelectorAll("option").length).toBeGreaterThan(1));
    await user.selectOptions(field(ticket, "Profile"), "Trading");
    await user.selectOptions(field(ticket, "Market"), "ETHUSD");
    await user.selectOptions(field(ticket, "Order type"), "MARKET");
    await user.click(ticket.getByText("Sell", { exact: true }));
    await user.type(field(ticket, "Base amount (ETH)"), "0.1");
    await user.click(ticket.getByRole("button", { name: "Review order" }));
    await outcome(ticket, "hold");
    const held = ticket.getByTestId("needs-approval").textContent;
    expect(held).toContain("A market order takes its price when it is approved and sent, not the price now.");
    expect(held).toContain("Needs approval by an approver before it is sent (orders of 100,000.00 USD or more).");
    await armed(ticket.getByRole("button", { name: "Submit for approval" }));
  });

  it("says what the desk will refuse, in its words, before sending", async () => {
    const form = await transferForm();
    // Past the 1,000,000 USD a person may move in a day, with what this file sent before.
    await user.type(field(form, "Amount"), "990000");
    await user.click(form.getByRole("button", { name: "Review transfer" }));
    await outcome(form, "refuse");
    expect(form.getByTestId("will-refuse").textContent).toBe(
      "The desk will refuse it: You may send at most 1,000,000.00 USD of transfers a day; 10,020.00 USD are sent or waiting today, and this one is 990,000.00 USD.",
    );
  });
});
