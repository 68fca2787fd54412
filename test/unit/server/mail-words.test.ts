import { describe, expect, it } from "vitest";
import type { Approval } from "@/lib/shared/approval";
import { DEFAULT_POLICY } from "@/lib/shared/policy";
import {
  approvalDecidedWords,
  approvalHeadline,
  approvalRequestedWords,
  webhookDisabledWords,
  type WordsContext,
} from "@/lib/server/events/mail-words";

const NAMES: Record<string, string> = {
  "p-treasury": "Treasury",
  "p-settlement": "Settlement",
  "p-trading": "Trading",
};
const PEOPLE: Record<string, string> = { "approver@example.com": "Alex Approver" };
const ctx: WordsContext = {
  nickname: (id) => NAMES[id] ?? id,
  baseUrl: "https://treasury.example.com",
  person: (email) => (PEOPLE[email] ? `${PEOPLE[email]} <${email}>` : email),
};

const transfer: Approval = {
  id: "apr-1",
  status: "PENDING",
  kind: "transfer",
  request: {
    from_profile_id: "p-treasury",
    to_profile_id: "p-settlement",
    asset: "USD",
    amount: "15000",
    ref_id: "r1",
  },
  profile_id: "p-treasury",
  value_usd: "15000",
  rule: { kind: "transfer", threshold_usd: "10000", approvals_needed: 1, open_minutes: 120 },
  hold_reason: null,
  requested_by: "ops@example.com",
  requested_name: "Oakley Ops",
  requested_role: "ops",
  created_at: "2026-11-25T14:00:00.000Z",
  expires_at: "2026-11-25T16:00:00.000Z",
  approvals_needed: 1,
  approvals: [],
  decided_at: null,
  decided_by: null,
  reason: null,
  outcome: null,
};

const FOOTER = `--\nSent by the treasury dashboard. To stop emails about approvals, turn them off on your Notifications page: ${ctx.baseUrl}/notifications`;

describe("the email to those who may decide a request", () => {
  it("says what, how much, who asked, when it expires, and links to its page", () => {
    const words = approvalRequestedWords(transfer, ctx);
    expect(words.subject).toBe("Approval needed: Internal transfer of 15,000.00 USD from Treasury to Settlement");
    expect(words.text).toBe(
      [
        "A request by Oakley Ops waits for four eyes, and you may decide it.",
        "",
        "What: Internal transfer of 15,000.00 USD from Treasury to Settlement.",
        "Value: 15,000.00 USD",
        "Asked by: Oakley Ops <ops@example.com> (ops)",
        "Asked at: 2026-11-25 14:00:00 UTC (2026-11-25T14:00:00.000Z)",
        "Expires: 2026-11-25 16:00:00 UTC (2026-11-25T16:00:00.000Z)",
        "Approvals needed: 1",
        "",
        "Open the request to decide it, signed in to the dashboard:",
        "https://treasury.example.com/approvals#approval-apr-1",
        "",
        "This email cannot approve or reject anything: the decision is made on the request's page only.",
        "",
        FOOTER,
      ].join("\n"),
    );
  });

  it("carries two links, the request's page and one's notifications, and no link that decides", () => {
    const { text } = approvalRequestedWords(transfer, ctx);
    expect(text.match(/https?:\/\/\S+/g)).toEqual([
      "https://treasury.example.com/approvals#approval-apr-1",
      "https://treasury.example.com/notifications",
    ]);
    expect(text).not.toMatch(/approve\?|\/approve|\/reject|token=/);
  });

  it("names an order, a second approval still needed, and a value no market prices", () => {
    const order: Approval = {
      ...transfer,
      kind: "order",
      profile_id: "p-trading",
      value_usd: null,
      request: { market: "BTCUSD", side: "BUY", type: "LIMIT", base_amount: "0.2", price: "61000", ref_id: "r2" },
      approvals_needed: 2,
      approvals: [{ by: "admin@example.com", role: "admin", at: "2026-11-25T14:05:00.000Z" }],
    };
    expect(approvalHeadline(order, ctx.nickname)).toBe(
      "Buy 0.2 BTC at 61,000.00 USD or better, a limit order, good till cancelled, from Trading",
    );
    const { text } = approvalRequestedWords(order, ctx);
    expect(text).toContain("Value: not known: no market prices it in USD");
    expect(text).toContain("Approvals needed: 1 more of 2");
  });

  it("lists a policy change's changes instead of a value", () => {
    const after = {
      ...DEFAULT_POLICY,
      approval_rules: DEFAULT_POLICY.approval_rules.map((r) =>
        r.kind === "transfer" ? { ...r, threshold_usd: "50000" } : r,
      ),
    };
    const policy: Approval = {
      ...transfer,
      kind: "policy",
      profile_id: "",
      value_usd: null,
      request: { before: DEFAULT_POLICY, after },
      rule: { kind: "policy", approvals_needed: 1, open_minutes: 1440 },
    };
    const words = approvalRequestedWords(policy, ctx);
    expect(words.subject).toBe("Approval needed: Change to the desk's policy");
    expect(words.text).toMatch(
      /Changes:\n {2}- Approval of transfers: .*10,000\.00 USD.* → .*50,000\.00 USD.* \(loosens\)/,
    );
    expect(words.text).not.toContain("Value:");
  });
});

describe("the email to the requester of a decision", () => {
  const decided = (patch: Partial<Approval>): Approval => ({
    ...transfer,
    decided_at: "2026-11-25T14:30:00.000Z",
    decided_by: "approver@example.com",
    ...patch,
  });

  it("a rejection: by whom, when and why", () => {
    const words = approvalDecidedWords(decided({ status: "REJECTED", reason: "not this week" }), ctx)!;
    expect(words.subject).toBe("Rejected: Internal transfer of 15,000.00 USD from Treasury to Settlement");
    expect(words.text).toBe(
      [
        "Your request was rejected by Alex Approver <approver@example.com> at 2026-11-25 14:30:00 UTC (2026-11-25T14:30:00.000Z).",
        "Reason: not this week",
        "",
        "What: Internal transfer of 15,000.00 USD from Treasury to Settlement.",
        "Value: 15,000.00 USD",
        "Asked at: 2026-11-25 14:00:00 UTC (2026-11-25T14:00:00.000Z)",
        "",
        "Nothing was sent. The request's page:",
        "https://treasury.example.com/approvals#approval-apr-1",
        "",
        FOOTER,
      ].join("\n"),
    );
  });

  it("an approval: by whom, and that it is sent now", () => {
    const words = approvalDecidedWords(decided({ status: "APPROVED", decided_by: "admin@example.com" }), ctx)!;
    expect(words.subject).toBe("Approved: Internal transfer of 15,000.00 USD from Treasury to Settlement");
    expect(words.text).toContain("Your request was approved by admin@example.com at 2026-11-25 14:30:00 UTC");
    expect(words.text).toContain("It is sent now, after the controls check it again with today's policy and prices.");
  });

  it("an expiry: nobody decided it in time, nothing was sent", () => {
    const words = approvalDecidedWords(
      decided({ status: "EXPIRED", decided_by: null, decided_at: transfer.expires_at }),
      ctx,
    )!;
    expect(words.subject).toBe("Expired: Internal transfer of 15,000.00 USD from Treasury to Settlement");
    expect(words.text).toContain("Your request expired at 2026-11-25 16:00:00 UTC (2026-11-25T16:00:00.000Z)");
    expect(words.text).toContain("Nothing was sent; ask again if it is still needed.");
  });

  it("a withdrawal, the requester's own act, or a request still waiting: no email", () => {
    expect(approvalDecidedWords(decided({ status: "WITHDRAWN", decided_by: "ops@example.com" }), ctx)).toBeUndefined();
    expect(approvalDecidedWords(transfer, ctx)).toBeUndefined();
  });
});

describe("the email to the admins of a webhook turned off", () => {
  it("names the webhook, since when it failed and when it was turned off", () => {
    const words = webhookDisabledWords({
      id: "wh_1",
      url: "https://ledger.example.com/hooks",
      failing_since: "2026-11-22T14:00:00.000Z",
      disabled_at: "2026-11-25T14:00:05.000Z",
    });
    expect(words.subject).toBe("Webhook turned off: https://ledger.example.com/hooks");
    expect(words.text).toContain("Failing since: 2026-11-22 14:00:00 UTC (2026-11-22T14:00:00.000Z)");
    expect(words.text).toContain("Turned off at: 2026-11-25 14:00:05 UTC (2026-11-25T14:00:05.000Z)");
  });
});
