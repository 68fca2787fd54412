import { describe, expect, it } from "vitest";
import {
  isSettling,
  mayStillChange,
  outcomeOf,
  RESULT_WORDS,
  RESULTS_OF_STATUS,
  resultOf,
  STATUS_FILTER_OPTIONS,
  type ActivityEntry,
} from "@/lib/shared/activity-outcome";
import { ACTIVITY_CSV_HEADER, activityCsvRow } from "@/lib/shared/activity-rows";

const entry = (over: Partial<ActivityEntry>): ActivityEntry => ({
  id: "e1",
  kind: "order",
  ref_id: "ref-1",
  user_email: "trader@example.com",
  user_role: "trader",
  profile_id: "p-trading",
  to_profile_id: null,
  request: {},
  status: "succeeded",
  created_at: "2026-11-23T17:04:28.000Z",
  completed_at: "2026-11-23T17:04:28.020Z",
  http_status: 200,
  latency_ms: 20,
  record: null,
  problem: null,
  result_id: "o-1",
  duplicate_of: null,
  ...over,
});
const order = (answered: string, now?: string) =>
  entry({ record: { id: "o-1", status: answered }, ...(now ? { record_status_now: now } : {}) });
const transfer = (answered: string, now?: string) =>
  entry({ kind: "transfer", to_profile_id: "p-settle", record: { status: answered }, record_status_now: now });

describe("what came of an entry, as the desk reads it", () => {
  it("an order the service rejected is not accepted: as answered, or as it has it now", () => {
    expect(resultOf(order("REJECTED"))).toBe("rejected");
    expect(outcomeOf(order("REJECTED"))).toBe("Order rejected by the service (rejected at the time)");
    // A post-only limit that would cross: answered SUBMITTED, REJECTED a moment later.
    expect(resultOf(order("SUBMITTED", "REJECTED"))).toBe("rejected");
    expect(outcomeOf(order("SUBMITTED", "REJECTED"))).toBe(
      "Order rejected by the service (submitted at the time, rejected now)",
    );
    expect(resultOf(order("SUBMITTED"))).toBe("accepted");
    expect(outcomeOf(order("SUBMITTED"))).toBe("Order placed (submitted at the time)");
  });

  it("an accepted order says how it stands now, when that moved on", () => {
    expect(resultOf(order("OPEN", "FILLED"))).toBe("accepted");
    expect(outcomeOf(order("OPEN", "FILLED"))).toBe("Order placed (open at the time, filled now)");
    expect(outcomeOf(order("OPEN", "EXPIRED"))).toBe("Order placed (open at the time, expired now)");
    expect(outcomeOf(order("OPEN", "OPEN"))).toBe("Order placed (open at the time)");
  });

  it("a transfer the service answered FAILED, or that failed since, is not accepted either", () => {
    expect(resultOf(transfer("FAILED"))).toBe("rejected");
    expect(outcomeOf(transfer("PENDING", "FAILED"))).toBe(
      "Transfer failed at the service (pending at the time, failed now)",
    );
    expect(resultOf(transfer("PENDING", "COMPLETED"))).toBe("accepted");
    expect(outcomeOf(transfer("PENDING", "COMPLETED"))).toBe("Transfer sent (pending at the time, completed now)");
  });

  it("the journal's own statuses: waiting, failed with the problem's title, declined; a cancel acknowledged", () => {
    const problem = { type: "about:blank", title: "Insufficient Funds", status: 403 };
    expect(resultOf(entry({ status: "pending" }))).toBe("waiting");
    expect(resultOf(entry({ status: "failed", problem }))).toBe("failed");
    expect(outcomeOf(entry({ status: "failed", problem }))).toBe("Insufficient Funds");
    expect(resultOf(entry({ status: "declined" }))).toBe("declined");
    const cancel = entry({ kind: "cancel", record: {}, record_status_now: "REJECTED" });
    expect([resultOf(cancel), outcomeOf(cancel)]).toEqual(["accepted", "Cancel acknowledged"]);
  });
});

describe("one set of words for the badges, the Status filter and the CSV", () => {
  it("each filter value (the API's, a contract) is labelled with the words of every badge it can show", () => {
    expect(STATUS_FILTER_OPTIONS.map((o) => o.value)).toEqual(["pending", "succeeded", "failed"]);
    expect(STATUS_FILTER_OPTIONS.map((o) => o.label)).toEqual(["Waiting", "Accepted or rejected", "Failed"]);
    for (const { value, label } of STATUS_FILTER_OPTIONS) {
      for (const result of RESULTS_OF_STATUS[value as keyof typeof RESULTS_OF_STATUS])
        expect(label.toLowerCase(), value).toContain(RESULT_WORDS[result].toLowerCase());
    }
    expect(STATUS_FILTER_OPTIONS.map((o) => o.label).join()).not.toMatch(/succeeded|pending/i);
  });

  it("every entry a filter value finds shows a badge that value's label names", () => {
    const records = [null, { status: "OPEN" }, { status: "REJECTED" }, { status: "FAILED" }, { status: "PENDING" }];
    const nows = [undefined, "REJECTED", "FAILED", "FILLED"];
    for (const status of ["pending", "succeeded", "failed"] as const)
      for (const kind of ["order", "transfer", "cancel"] as const)
        for (const record of records)
          for (const now of nows) {
            const result = resultOf(entry({ kind, status, record, record_status_now: now }));
            expect(RESULTS_OF_STATUS[status], `${status} ${kind}`).toContain(result);
          }
  });

  it("the CSV writes the badge's word beside the journal's code, and the record's statuses then and now", () => {
    const row = activityCsvRow(order("SUBMITTED", "REJECTED"), (id) => id);
    const named = Object.fromEntries(ACTIVITY_CSV_HEADER.map((h, i) => [h, row[i]]));
    expect(named).toMatchObject({
      status: "succeeded",
      result: RESULT_WORDS.rejected,
      outcome: "Order rejected by the service (submitted at the time, rejected now)",
      record_status: "SUBMITTED",
      record_status_now: "REJECTED",
    });
  });
});

describe("what is worth asking the service about, and polling for", () => {
  it("asks about records that may still change, never a final one or a cancel", () => {
    expect(mayStillChange("order", "SUBMITTED")).toBe(true);
    expect(mayStillChange("order", "OPEN")).toBe(true);
    expect(mayStillChange("order", "")).toBe(true);
    expect(mayStillChange("order", "REJECTED")).toBe(false);
    expect(mayStillChange("order", "FILLED")).toBe(false);
    expect(mayStillChange("transfer", "PENDING")).toBe(true);
    expect(mayStillChange("transfer", "COMPLETED")).toBe(false);
    expect(mayStillChange("cancel", "")).toBe(false);
  });

  it("polls fast while a request waits or a record read now is still on its way; not for a resting order", () => {
    expect(isSettling(entry({ status: "pending" }))).toBe(true);
    expect(isSettling(order("SUBMITTED", "SUBMITTED"))).toBe(true);
    expect(isSettling(transfer("PENDING", "PENDING"))).toBe(true);
    expect(isSettling(order("SUBMITTED", "OPEN"))).toBe(false);
    expect(isSettling(order("SUBMITTED", "REJECTED"))).toBe(false);
    // Not read now (the service could not say): nothing to poll for.
    expect(isSettling(order("SUBMITTED"))).toBe(false);
  });
});
