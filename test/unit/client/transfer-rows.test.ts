import { describe, expect, it } from "vitest";
import {
  anyTransferLive,
  combinedStatus,
  groupTransfers,
  incompleteGroupIds,
  TRANSFER_CSV_HEADER,
  transferCsvRow,
  transferKind,
} from "@/lib/shared/transfer-rows";
import type { Transfer } from "@/lib/spec";

let seq = 0;
const leg = (over: Partial<Transfer> = {}): Transfer => ({
  id: `t${++seq}`,
  customer_id: "c1",
  profile_id: "p-from",
  amount: "250.00",
  total: "250.00",
  fee: "0",
  asset: "USD",
  direction: "DEBIT",
  type: "INTERNAL_TRANSFER_DEBIT",
  status: "PENDING",
  created_at: "2025-03-01T10:00:00.000Z",
  updated_at: "2025-03-01T10:00:00.000Z",
  ...over,
});
const pair = (group: string, over: Partial<Transfer> = {}) => {
  const debit = leg({ group_id: group, ref_id: `ref-${group}`, ...over });
  const credit = leg({
    group_id: group,
    direction: "CREDIT",
    type: "INTERNAL_TRANSFER_CREDIT",
    profile_id: "p-to",
    ...over,
  });
  return { debit, credit };
};

describe("groupTransfers", () => {
  it("makes one row per group_id with the DEBIT leg first, in the service's order", () => {
    const a = pair("ga");
    const b = pair("gb", { asset: "BTC", amount: "0.5" });
    // The service lists newest first; here a CREDIT leg happens to come before its DEBIT.
    const groups = groupTransfers([b.credit, b.debit, a.debit, a.credit]);
    expect(groups.map((g) => g.key)).toEqual(["group:gb", "group:ga"]);
    expect(groups[0]!.legs.map((l) => l.direction)).toEqual(["DEBIT", "CREDIT"]);
    expect(groups[0]).toMatchObject({ groupId: "gb", asset: "BTC", amount: "0.5", debit: b.debit, credit: b.credit });
  });

  it("keeps a transfer without a group (a deposit) as its own row", () => {
    const deposit = leg({ direction: "CREDIT", type: "WIRE_DEPOSIT", profile_id: "p-to", status: "COMPLETED" });
    const a = pair("ga");
    const groups = groupTransfers([deposit, a.debit, a.credit]);
    expect(groups.map((g) => g.key)).toEqual([`transfer:${deposit.id}`, "group:ga"]);
    expect(groups[0]).toMatchObject({ groupId: undefined, debit: undefined, credit: deposit, status: "COMPLETED" });
    expect(transferKind(groups[0]!)).toBe("Wire deposit");
    expect(transferKind(groups[1]!)).toBe("Internal transfer");
  });

  it("completes a group with a leg fetched separately, and never adds rows from those", () => {
    const a = pair("ga");
    const stray = pair("other");
    const groups = groupTransfers([a.debit], [a.credit, stray.debit, a.debit]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.legs.map((l) => l.id)).toEqual([a.debit.id, a.credit.id]);
  });

  it("shows a group whose DEBIT leg is missing under its CREDIT leg", () => {
    const a = pair("ga");
    const [g] = groupTransfers([a.credit]);
    expect(g).toMatchObject({ debit: undefined, credit: a.credit, amount: "250.00" });
  });

  it("returns nothing for no legs", () => {
    expect(groupTransfers([])).toEqual([]);
  });
});

describe("incompleteGroupIds", () => {
  it("lists groups with one leg on the page, not deposits", () => {
    const a = pair("ga");
    const b = pair("gb");
    expect(incompleteGroupIds([a.debit, a.credit, b.debit, leg({ type: "WIRE_DEPOSIT" })])).toEqual(["gb"]);
  });
});

describe("statuses", () => {
  it("is COMPLETED only when every leg is, FAILED when any leg failed", () => {
    expect(combinedStatus([{ status: "COMPLETED" }, { status: "COMPLETED" }])).toBe("COMPLETED");
    expect(combinedStatus([{ status: "COMPLETED" }, { status: "PENDING" }])).toBe("PENDING");
    expect(combinedStatus([{ status: "PENDING" }, { status: "FAILED" }])).toBe("FAILED");
    expect(combinedStatus([])).toBe("PENDING");
  });

  it("keeps polling until every leg is COMPLETED or FAILED", () => {
    expect(anyTransferLive([{ status: "COMPLETED" }, { status: "FAILED" }])).toBe(false);
    expect(anyTransferLive([{ status: "COMPLETED" }, { status: "PENDING" }])).toBe(true);
  });
});

describe("transferCsvRow", () => {
  it("writes each leg with its profile's name and the initiator given", () => {
    const a = pair("ga", { amount: "0.000000000000000001", asset: "ETH" });
    a.debit.metadata = { note: "=cmd" };
    const by = { user_email: "ops@example.com", user_role: "ops" };
    const nickname = (id: string) => ({ "p-from": "Treasury", "p-to": "Settlement" })[id] ?? id;
    const rows = [a.debit, a.credit].map((t) => transferCsvRow(t, nickname, by));
    expect(rows).toHaveLength(2);
    const named = rows.map((r) => Object.fromEntries(TRANSFER_CSV_HEADER.map((h, i) => [h, r[i]])));
    expect(named[0]).toMatchObject({
      group_id: "ga",
      direction: "DEBIT",
      profile: "Treasury",
      amount: "0.000000000000000001",
      metadata: '{"note":"=cmd"}',
      initiated_by: "ops@example.com",
    });
    expect(named[1]).toMatchObject({
      direction: "CREDIT",
      profile: "Settlement",
      ref_id: "",
      initiated_by: "ops@example.com",
    });
    for (const r of rows) expect(r).toHaveLength(TRANSFER_CSV_HEADER.length);
  });
});
