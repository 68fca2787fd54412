import { describe, expect, it } from "vitest";
import {
  batchFundsWords,
  batchProgressWords,
  batchRefusalWords,
  batchTitle,
  sendersWords,
} from "@/lib/shared/batch-approval-words";
import { shortBy, totalsInWords } from "@/lib/shared/describe-batch";
import { describeApproval } from "@/lib/shared/describe-approval";
import type { Approval } from "@/lib/shared/approval";
import type { BatchApprovalRequest } from "@/lib/shared/batch";

const NAMES: Record<string, string> = {
  "p-treasury": "Treasury",
  "p-settlement": "Settlement",
  "p-reserve": "Operations reserve",
};
const nickname = (id: string) => NAMES[id] ?? id;

const request: BatchApprovalRequest = {
  ref_id: "b-7",
  batch_id: "0190-batch",
  rows: 3,
  totals: [{ asset: "USD", amount: "18000", value_usd: "18000" }],
  outgoing: [
    { profile_id: "p-treasury", asset: "USD", amount: "12000" },
    { profile_id: "p-reserve", asset: "USD", amount: "6000" },
  ],
  largest: [
    {
      row: 1,
      from_profile_id: "p-treasury",
      to_profile_id: "p-settlement",
      asset: "USD",
      amount: "6000",
      value_usd: "6000",
    },
  ],
};

const heldBatch: Approval = {
  id: "a9",
  status: "PENDING",
  kind: "batch",
  request: request as unknown as Record<string, unknown>,
  profile_id: "",
  value_usd: "18000",
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

describe("a held batch in words", () => {
  it("its title and its sentence: how many, the totals, who sends, by nickname", () => {
    expect(batchTitle(request)).toBe("Batch of 3 internal transfers");
    expect(batchTitle({ rows: 1 })).toBe("Batch of 1 internal transfer");
    expect(batchTitle({ rows: 1200 })).toBe("Batch of 1,200 internal transfers");
    expect(describeApproval(heldBatch, nickname)).toBe(
      "Send a batch of 3 internal transfers, 18,000.00 USD in all, from Treasury and Operations reserve.",
    );
  });

  it("its worth in USD when its assets are not all USD; none when one has no USD price", () => {
    const mixed: Approval = {
      ...heldBatch,
      value_usd: "50500",
      request: {
        ...request,
        totals: [
          { asset: "USD", amount: "18000", value_usd: "18000" },
          { asset: "BTC", amount: "0.5", value_usd: "32500" },
        ],
      },
    };
    expect(describeApproval(mixed, nickname)).toBe(
      "Send a batch of 3 internal transfers, 18,000.00 USD and 0.5 BTC in all, worth about 50,500.00 USD, from Treasury and Operations reserve.",
    );
    expect(describeApproval({ ...mixed, value_usd: null }, nickname)).toBe(
      "Send a batch of 3 internal transfers, 18,000.00 USD and 0.5 BTC in all, from Treasury and Operations reserve.",
    );
  });

  it("totals and senders as a list in words, each sender once", () => {
    expect(totalsInWords([])).toBe("nothing");
    expect(
      totalsInWords([
        { asset: "EUR", amount: "1" },
        { asset: "SGD", amount: "2" },
        { asset: "BTC", amount: "0.5" },
      ]),
    ).toBe("1.00 EUR, 2.00 SGD and 0.5 BTC");
    expect(
      sendersWords(
        [
          { profile_id: "p-treasury" },
          { profile_id: "p-treasury" },
          { profile_id: "p-settlement" },
          { profile_id: "p-unknown" },
        ],
        nickname,
      ),
    ).toBe("Treasury, Settlement and p-unknown");
  });
});

describe("a sending profile's funds beside what the batch takes", () => {
  it("enough: what it sends and what it has", () => {
    const f = { profile_id: "p-treasury", asset: "USD", needed: "12000", available: "25000000" };
    expect(shortBy(f)).toBeUndefined();
    expect(batchFundsWords(f, nickname)).toEqual({
      sends: "Treasury sends 12,000.00 USD",
      has: "has 25,000,000.00 USD available",
    });
  });

  it("short: by how much, and that the whole batch will be refused at send", () => {
    const f = { profile_id: "p-reserve", asset: "USD", needed: "12000", available: "5000.5" };
    expect(shortBy(f)).toBe("6999.5");
    expect(batchFundsWords(f, nickname)).toEqual({
      sends: "Operations reserve sends 12,000.00 USD",
      has: "has 5,000.50 USD available",
      short: "6,999.50 USD short: the batch will be refused at send",
    });
    // Exactly enough is enough.
    expect(shortBy({ ...f, available: "12000.00" })).toBeUndefined();
  });

  it("unknown: the service could not say", () => {
    const f = { profile_id: "p-treasury", asset: "BTC", needed: "0.5", available: null };
    expect(shortBy(f)).toBeUndefined();
    expect(batchFundsWords(f, nickname)).toEqual({
      sends: "Treasury sends 0.5 BTC",
      has: "the service cannot say now what it has available",
    });
  });
});

describe("a batch's refusal at send in the desk's words", () => {
  it("short funds with the figures formatted and the profile by nickname; anything else its detail, profiles named", () => {
    expect(
      batchRefusalWords(
        {
          type: "/problems/insufficient-funds",
          title: "Insufficient Funds",
          status: 403,
          detail: "insufficient USD funds in profile p-reserve: the batch sends 12000 from it, 5000 available",
          meta: { profile_id: "p-reserve", asset: "USD", available: "5000", needed: "12000" },
        },
        nickname,
      ),
    ).toBe("Operations reserve has 5,000.00 USD available; the batch sends 12,000.00 USD from it");
    const id = "4406aa9c-0000-4000-8000-000000000001";
    expect(
      batchRefusalWords({ title: "Forbidden", status: 403, detail: `profile ${id} is closed` }, (p) =>
        p === id ? "Trading" : p,
      ),
    ).toBe("Trading is closed");
    expect(batchRefusalWords({ status: 409, title: "Conflict" })).toBe("Conflict");
    expect(batchRefusalWords(null)).toBe("no reason was given");
  });
});

describe("where a batch stands, beside its approval", () => {
  const approved = (outcome: Approval["outcome"]): Approval => ({
    ...heldBatch,
    status: "APPROVED",
    decided_by: "approver@example.com",
    outcome,
  });
  const sending = approved({ status: 201, body: { batch: {} }, sent: true });
  const counts = (sent: number, failed = 0, skipped = 0) => ({
    waiting: 3 - sent - failed - skipped,
    sent,
    failed,
    skipped,
  });

  it("before and without a send: nothing goes, none went", () => {
    expect(batchProgressWords(heldBatch, undefined)).toBe("Nothing is sent before it is approved.");
    for (const status of ["REJECTED", "EXPIRED", "WITHDRAWN"] as const)
      expect(batchProgressWords({ ...heldBatch, status }, undefined), status).toBe("None of it was sent.");
    expect(batchProgressWords(approved({ status: 403, body: {}, sent: false }), undefined)).toBe(
      "None of it was sent.",
    );
    expect(batchProgressWords(approved(null), undefined)).toBe("Starting to send…");
  });

  it("sending and after: its rows as the batch counts them now", () => {
    expect(batchProgressWords(sending, undefined)).toBeUndefined();
    expect(batchProgressWords(sending, { status: "SENDING", counts: counts(1) })).toBe("Sending: 1 of 3 sent.");
    expect(batchProgressWords(sending, { status: "SENDING", counts: counts(1, 1) })).toBe(
      "Sending: 1 of 3 sent, 1 failed.",
    );
    expect(batchProgressWords(sending, { status: "COMPLETED", counts: counts(3) })).toBe("Completed: all 3 sent.");
    expect(batchProgressWords(sending, { status: "COMPLETED", counts: counts(2, 1) })).toBe(
      "Completed: 2 of 3 sent, 1 failed.",
    );
    expect(batchProgressWords(sending, { status: "CANCELLED", counts: counts(1, 0, 2) })).toBe(
      "Cancelled: 1 sent, 2 not sent.",
    );
  });
});
