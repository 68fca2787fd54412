import { describe, expect, it } from "vitest";
import type { Approval } from "@/lib/shared/approval";
import { viewOfApprovals } from "@/lib/shared/approval-order";

const approval = (id: string, over: Partial<Approval>): Approval =>
  ({
    id,
    kind: "transfer",
    value_usd: "100",
    requested_by: "ops@example.com",
    requested_name: "Oakley Ops",
    created_at: "2026-11-27T08:00:00.000Z",
    expires_at: "2026-11-27T10:00:00.000Z",
    ...over,
  }) as Approval;

const A = approval("a", {
  value_usd: "45000",
  created_at: "2026-11-27T08:01:00.000Z",
  expires_at: "2026-11-27T09:30:00.000Z",
});
const B = approval("b", { value_usd: "120.5", created_at: "2026-11-27T08:03:00.000Z" });
const C = approval("c", {
  kind: "order",
  value_usd: "100000.01",
  requested_by: "trader@example.com",
  requested_name: "Taylor Trader",
  created_at: "2026-11-27T08:02:00.000Z",
  expires_at: "2026-11-27T09:00:00.000Z",
});
const P = approval("p", {
  kind: "policy",
  value_usd: null,
  requested_by: "admin@example.com",
  requested_name: "Ada Admin",
});
const all = [A, B, C, P];
const ids = (items: Approval[]) => items.map((a) => a.id);

describe("the Approvals page's filter and sort", () => {
  it("lists newest first unless told", () => {
    expect(ids(viewOfApprovals(all, {}))).toEqual(["b", "c", "a", "p"]);
    expect(ids(viewOfApprovals(all, { sort: "oldest" }))).toEqual(["p", "a", "c", "b"]);
  });

  it("sorts by expiry, and by value as decimals with the unpriced last", () => {
    expect(ids(viewOfApprovals(all, { sort: "expiring" }))).toEqual(["c", "a", "b", "p"]);
    // 100,000.01 > 45,000 > 120.5: compared as decimals, not as text.
    expect(ids(viewOfApprovals(all, { sort: "largest" }))).toEqual(["c", "a", "b", "p"]);
  });

  it("filters by kind and by any part of the requester's email or name", () => {
    expect(ids(viewOfApprovals(all, { kind: "order" }))).toEqual(["c"]);
    expect(ids(viewOfApprovals(all, { who: "TAYLOR" }))).toEqual(["c"]);
    expect(ids(viewOfApprovals(all, { who: "ops@", kind: "transfer", sort: "largest" }))).toEqual(["a", "b"]);
  });
});
