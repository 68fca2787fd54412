// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PolicyEditor } from "@/components/policies/policy-form";
import type { InProcessDashboard } from "../support/dashboard";
import { keptDashboard, renderAs, type RenderedAs } from "../support/components";

/**
 * The Policies form as an admin edits it (issues 10 and 20): limits written grouped, a refused
 * value named on its own field with nothing saved and nothing thrown, a change that loosens the
 * controls asked for approval and one that only tightens them saved at once. One in-process
 * dashboard for the file: each test starts from the policy the one before left. The page as a
 * whole (axe at each width, what other roles see) is the e2e project's.
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

/** The admin's Policies form, as the page opens it. */
async function policyForm(): Promise<Scope> {
  page = await renderAs("admin", <PolicyEditor />, { dashboard: d });
  return within(await screen.findByRole("form", { name: "Policy" }));
}
const input = (scope: Scope, label: string | RegExp) =>
  scope.getByLabelText(label, { exact: true, selector: "input" }) as HTMLInputElement;
const fill = async (field: HTMLInputElement, text: string) => {
  await user.clear(field);
  await user.type(field, text);
};
const puts = () => page!.writes().filter((w) => w.startsWith("PUT "));
const policy = async () => (await d.as.admin.call("GET", "/api/policies")).body.policy;
/** A toast saying `text`, once it is shown. */
const toast = (text: RegExp) => screen.findByText(text, { selector: "[data-testid=toast] *" });

describe("the Policies form", () => {
  it("shows limits grouped, refuses 'abc' and '-5abc' in words on the field without throwing, and takes 900,000 and '4 %'", async () => {
    const form = await policyForm();
    const daily = await form.findByLabelText("Orders per person per UTC day (USD)", { selector: "input" });
    await waitFor(() => expect((daily as HTMLInputElement).value).toBe("10,000,000"));
    const trader = input(form, "Largest order, trader (USD)");
    expect(trader.value).toBe("1,000,000");

    const guard = form.getByLabelText(/Confirm orders taking liquidity/, { selector: "input" }) as HTMLInputElement;
    for (const typed of ["abc", "-5abc"]) {
      await fill(guard, typed);
      await user.click(form.getByRole("button", { name: "Save policy" }));
      await waitFor(() => expect(guard.getAttribute("aria-invalid")).toBe("true"));
      const said = form
        .getAllByRole("alert")
        .find(
          (a: HTMLElement) => a.textContent === "Price guard must be a percentage greater than zero, such as 5 or 12.5",
        );
      // On its own field: the field points at it.
      expect(said, "the rule, in words").toBeTruthy();
      expect((guard.getAttribute("aria-describedby") ?? "").split(" ")).toContain(said!.id);
    }
    expect(puts()).toEqual([]);

    // Grouped as typed, grouped once left; a percentage with its sign. Both tighten: saved at once.
    await fill(trader, "900000");
    await user.tab();
    expect(trader.value).toBe("900,000");
    await fill(guard, "4 %");
    await waitFor(() => expect(form.getByTestId("policy-change").textContent).toContain("Price guard: 5% → 4%"));
    await user.click(form.getByRole("button", { name: "Save policy" }));
    await waitFor(async () =>
      expect((await policy()).limits).toMatchObject({
        price_guard_percent: "4",
        max_order_notional_usd: { trader: "900000" },
      }),
    );
  });

  it("changes the transfer threshold; a refused value is named on its field and nothing is saved", async () => {
    let form = await policyForm();
    let rule1 = within(await form.findByRole("group", { name: "Rule 1" }));
    const threshold = () => input(rule1, "From (USD)");
    await waitFor(() => expect(threshold().value).toBe("10,000"));

    await fill(threshold(), "ten thousand");
    await fill(input(rule1, "Expires after (min)"), "4");
    await user.click(form.getByRole("button", { name: "Save policy" }));
    await waitFor(() => expect(threshold().getAttribute("aria-invalid")).toBe("true"));
    const words = form.getByRole("group", { name: "Rule 1" }).textContent;
    expect(words).toMatch(/threshold must be an amount in USD greater than zero, such as 10000/);
    expect(words).toMatch(/Expires after must be at least 5 minutes/);
    expect(puts()).toEqual([]);

    // A higher threshold loosens the controls: the form says so before it is sent, and it waits for an approver.
    await fill(threshold(), "12500");
    await fill(input(rule1, "Expires after (min)"), "90");
    await waitFor(() =>
      expect(form.getByTestId("policy-change-kind").textContent).toMatch(
        /loosens the controls: it waits for an approver/,
      ),
    );
    expect(form.getByTestId("policy-change").textContent).toContain(
      "Approval of transfers: from 10,000.00 USD: 1 approval, open 120 min → from 12,500.00 USD: 1 approval, open 90 min (loosens)",
    );
    await user.click(form.getByRole("button", { name: "Ask for approval" }));
    expect(await toast(/Policy change sent for approval/)).toBeTruthy();
    expect(puts()).toHaveLength(1);
    expect((await policy()).approval_rules[0].threshold_usd).toBe("10000");
    const asked = (await d.as.approver.call("GET", "/api/approvals?status=PENDING")).body.items.find(
      (a: { kind: string }) => a.kind === "policy",
    );
    expect((await d.as.approver.call("POST", `/api/approvals/${asked.id}/approve`)).status).toBe(200);
    expect((await policy()).approval_rules[0]).toEqual({
      kind: "transfer",
      threshold_usd: "12500",
      approvals_needed: 1,
      open_minutes: 90,
    });

    // A lower threshold only tightens: saved at once (the page opened again, with the approved policy).
    await page!.close();
    form = await policyForm();
    rule1 = within(await form.findByRole("group", { name: "Rule 1" }));
    await waitFor(() => expect(threshold().value).toBe("12,500"));
    await fill(threshold(), "9000");
    await waitFor(() =>
      expect(form.getByTestId("policy-change-kind").textContent).toMatch(
        /only tightens the controls: it applies at once/,
      ),
    );
    await user.click(form.getByRole("button", { name: "Save policy" }));
    expect(await toast(/Policy saved/)).toBeTruthy();
    expect((await policy()).approval_rules[0].threshold_usd).toBe("9000");
  });
});
