// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { OrderTicket } from "@/components/orders/order-ticket";
import { TransferForm } from "@/components/transfers/transfer-form";
import { armed, renderAs, type RenderedAs, type Route } from "../support/components";

/**
 * Entry that can't be rushed (issue 9), as far as a form shows it alone: Enter twice opens the
 * review and sends nothing, a send clears what must not be sent twice, a repeat is asked about,
 * a refusal is worded in the desk's terms, and a retry is offered only where it can help. The
 * forms as their pages render them, against the in-process back end. The review's pause held on
 * the page's clock, each width, and a result followed to its end are the e2e project's
 * (e2e/entry.test.ts).
 */

type Scope = ReturnType<typeof within>;
const field = (scope: Scope, label: string) =>
  scope.getByLabelText(label, { selector: "input, select" }) as HTMLInputElement | HTMLSelectElement;
/** The label of the focused field. */
const focusedLabel = () => {
  const id = document.activeElement?.id;
  return (id && document.querySelector(`label[for="${id}"]`)?.textContent) || "";
};
const focusedTestId = () => document.activeElement?.getAttribute("data-testid");
/** What was sent to the service (not a review's preview). */
const sends = () => page!.writes().filter((w) => w.includes("/api/v2/"));
const orderPosts = () => sends().filter((w) => /^POST .*\/orders$/.test(w));
/** The scope's alert whose text matches, once there is one. */
const alertWith = (scope: Scope, text: RegExp) =>
  waitFor(() => {
    const found = scope.queryAllByRole("alert").find((a: HTMLElement) => text.test(a.textContent ?? ""));
    expect(found, `an alert saying ${text}`).toBeTruthy();
    return found!;
  });
/** The review's ref_id, from its details. */
const reviewRefId = (scope: Scope) =>
  [...scope.getByTestId("review").querySelectorAll("dt")].find((dt) => dt.textContent === "ref_id")!.nextElementSibling!
    .textContent!;

let page: RenderedAs | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
});
const user = userEvent.setup();

/** The trader's ticket with Trading chosen. */
async function tradingTicket(options: { route?: Route } = {}): Promise<Scope> {
  page = await renderAs("trader", <OrderTicket email="trader@example.com" controlsLine={null} />, options);
  const ticket = within(await screen.findByRole("form", { name: "Order ticket" }));
  await waitFor(() => expect(field(ticket, "Profile").querySelectorAll("option").length).toBeGreaterThan(1));
  await user.selectOptions(field(ticket, "Profile"), "Trading");
  return ticket;
}

/** Ops's transfer form, its profiles loaded. */
async function transferForm(): Promise<Scope> {
  page = await renderAs("ops", <TransferForm controlsLine={null} />);
  const form = within(await screen.findByRole("form", { name: "Internal transfer" }));
  await waitFor(() => expect(field(form, "From profile").querySelectorAll("option").length).toBeGreaterThan(1));
  return form;
}

const fill = async (scope: Scope, label: string, text: string) => {
  await user.clear(field(scope, label));
  await user.type(field(scope, label), text);
};
const confirm = async (scope: Scope) =>
  user.click(await armed(scope.getByRole("button", { name: "Confirm and send" })));

describe("Enter twice does not skip the review", () => {
  it("transfer form: Enter, Enter opens the review and sends nothing", async () => {
    const form = await transferForm();
    await user.selectOptions(field(form, "From profile"), "Treasury");
    await user.selectOptions(field(form, "To profile"), "Settlement");
    await fill(form, "Amount", "12.34");
    await user.keyboard("{Enter}");
    await form.findByTestId("review");
    await user.keyboard("{Enter}");
    await armed(form.getByRole("button", { name: "Confirm and send" }));
    expect(sends()).toEqual([]);
    expect(focusedTestId(), "focus on the review's text, not on Confirm").toBe("review");
    expect(form.getByTestId("transfer-review").textContent).toBe("Move 12.34 USD from Treasury to Settlement.");
  });
});

describe("after a send", () => {
  it("clears the amount, keeps side, market, profile and price, renews the ref_id and returns focus to the amount", async () => {
    const ticket = await tradingTicket();
    await user.click(ticket.getByText("Sell", { exact: true }));
    await user.selectOptions(field(ticket, "Market"), "ETHUSD");
    await fill(ticket, "Price (USD)", "9000.00");
    await fill(ticket, "Base amount (ETH)", "0.031");
    await user.click(ticket.getByRole("button", { name: "Review order" }));
    await ticket.findByTestId("review");
    const sentRef = reviewRefId(ticket);
    await confirm(ticket);
    await ticket.findByTestId("order-result");
    await waitFor(() => expect(focusedLabel()).toBe("Base amount (ETH)"));
    expect(field(ticket, "Base amount (ETH)").value).toBe("");
    expect(field(ticket, "Price (USD)").value).toBe("9000.00");
    expect(field(ticket, "Market").value).toBe("ETHUSD");
    expect((ticket.getByRole("radio", { name: "Sell" }) as HTMLInputElement).checked).toBe(true);
    expect((field(ticket, "Profile") as HTMLSelectElement).selectedOptions[0]?.textContent).toBe("Trading");
    await user.click(ticket.getByText("Advanced"));
    const nextRef = field(ticket, "Ref ID").value;
    expect(nextRef).toMatch(/^dash-/);
    expect(nextRef).not.toBe(sentRef);
    await waitFor(() => expect(ticket.getByTestId("order-outcome").textContent).toBe("Resting: 0 of 0.031 ETH filled"));
    expect(orderPosts()).toHaveLength(1);
  });
});

describe("the same transfer again within a minute asks first", () => {
  it("asks about a transfer too", async () => {
    const form = await transferForm();
    await user.selectOptions(field(form, "From profile"), "Treasury");
    await user.selectOptions(field(form, "To profile"), "Operations reserve");
    for (let i = 0; i < 2; i++) {
      await fill(form, "Amount", "7.77");
      await user.click(form.getByRole("button", { name: "Review transfer" }));
      await confirm(form);
      if (i === 0) await form.findByTestId("transfer-result");
    }
    const question = await form.findByTestId("repeat-question");
    expect(question.textContent).toMatch(/^You sent this \d+ s ago\. Send another\?$/);
  });
});

describe("refusals in the desk's words; a retry only where it can help", () => {
  it("words the service's 403 with the nickname and amounts, closes the review and renews the ref_id", async () => {
    // Balances that say more than the service holds: the ticket lets the order through, the service refuses it.
    const ticket = await tradingTicket({
      route: async ({ method, url }, pass) => {
        const res = await pass();
        if (method !== "GET" || !/\/api\/v2\/profiles\/[^/]+\/balances$/.test(url.pathname)) return res;
        const body = (await res.json()) as { items: { available: string }[] };
        return Response.json({ items: body.items.map((b) => ({ ...b, available: "999999" })) });
      },
    });
    // A sell of 20,001 LINK (Trading holds 20,000), sent without approval while the rule is raised.
    await raiseOrderApprovalThreshold();
    await user.selectOptions(field(ticket, "Market"), "LINKUSD");
    await user.click(ticket.getByText("Sell", { exact: true }));
    await fill(ticket, "Price (USD)", "15.00");
    await fill(ticket, "Base amount (LINK)", "20001");
    await user.click(ticket.getByRole("button", { name: "Review order" }));
    await ticket.findByTestId("review");
    const sentRef = reviewRefId(ticket);
    await confirm(ticket);
    const alert = await alertWith(ticket, /The order was not placed/);
    expect(alert.textContent).toMatch(
      /The order was not placed: Insufficient FundsTrading has 20,000 LINK available; this order needs 20,001 LINK\./,
    );
    expect(ticket.queryByTestId("review"), "a 4xx closes the review").toBeNull();
    expect(ticket.queryByRole("button", { name: /Retry/ })).toBeNull();
    await waitFor(() => expect(focusedLabel()).toBe("Base amount (LINK)"));
    await user.click(ticket.getByText("Advanced"));
    expect(field(ticket, "Ref ID").value).not.toBe(sentRef);
  });

  it("offers 'Retry with the same ref_id' after a 5xx or a lost connection, never after a 4xx", async () => {
    const problem = (status: number, title: string) =>
      Response.json({ type: "about:blank", title, status, detail: `${title}.` }, { status });
    const answers: (() => Response)[] = [
      () => problem(503, "Service Busy"),
      () => {
        throw new TypeError("Failed to fetch");
      },
      () => problem(422, "Unprocessable"),
    ];
    const ticket = await tradingTicket({
      route: ({ method, url }, pass) =>
        method === "POST" && /\/orders$/.test(url.pathname) ? Promise.resolve().then(answers.shift()!) : pass(),
    });
    await fill(ticket, "Price (USD)", "30000.00");
    await fill(ticket, "Base amount (BTC)", "0.0421");
    await user.click(ticket.getByRole("button", { name: "Review order" }));
    await ticket.findByTestId("review");
    const ref = reviewRefId(ticket);
    await confirm(ticket);
    const retry = await ticket.findByRole("button", { name: "Retry with the same ref_id" });
    expect(reviewRefId(ticket)).toBe(ref);
    await user.click(await armed(retry));
    await alertWith(ticket, /Network error/);
    expect(
      ticket.queryAllByRole("button", { name: "Retry with the same ref_id" }),
      "a lost connection may be retried",
    ).toHaveLength(1);
    await user.click(await armed(ticket.getByRole("button", { name: "Retry with the same ref_id" })));
    await alertWith(ticket, /Unprocessable/);
    expect(ticket.queryByTestId("review"), "a 4xx closes the review").toBeNull();
    expect(answers, "each answer was asked for").toEqual([]);
  });
});

describe("the ticket's keys and words", () => {
  it("B and S set the side outside text fields, not while typing or with a modifier", async () => {
    const ticket = await tradingTicket();
    const sell = ticket.getByRole("radio", { name: "Sell" }) as HTMLInputElement;
    const buy = ticket.getByRole("radio", { name: "Buy" }) as HTMLInputElement;
    await user.click(screen.getByRole("heading", { name: "Order ticket" }));
    await user.keyboard("s");
    expect(sell.checked).toBe(true);
    await user.keyboard("b");
    expect(buy.checked).toBe(true);
    await user.keyboard("{Alt>}s{/Alt}");
    expect(buy.checked, "with a modifier").toBe(true);
    await user.click(field(ticket, "Price (USD)"));
    await user.keyboard("s");
    expect(buy.checked, "typing in a field").toBe(true);
  });

  it("names the recipient profile by nickname in the review", async () => {
    const ticket = await tradingTicket();
    await fill(ticket, "Price (USD)", "30000.00");
    await fill(ticket, "Base amount (BTC)", "0.0111");
    await user.click(ticket.getByText("Advanced"));
    await user.selectOptions(field(ticket, "Recipient profile"), "Settlement");
    await user.click(ticket.getByRole("button", { name: "Review order" }));
    expect((await ticket.findByTestId("order-review")).textContent).toContain("settling into Settlement");
  });
});

/**
 * Raises the policy's order approval threshold of the open page's dashboard, as the admin asks
 * and the approver approves: raising it loosens the controls, so it takes both.
 */
async function raiseOrderApprovalThreshold(): Promise<void> {
  const { admin, approver } = page!.d.as;
  type Rules = { approval_rules: { kind: string; threshold_usd: string }[] };
  const { policy } = (await admin.call("GET", "/api/policies")).body as { policy: Rules };
  const raised = policy.approval_rules.map((r) => (r.kind === "order" ? { ...r, threshold_usd: "100000000" } : r));
  const asked = await admin.call("PUT", "/api/policies", { ...policy, approval_rules: raised });
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  expect((await approver.call("POST", `/api/approvals/${asked.body.approval.id}/approve`)).status).toBe(200);
}
