import { describe, expect, it } from "vitest";
import { isOlderState } from "@/lib/shared/record-freshness";

const order = (status: string, modified_at: string) => ({ status, modified_at });

describe("isOlderState", () => {
  it("keeps the newer change by its time, whatever the statuses", () => {
    const submitted = order("SUBMITTED", "2026-11-24T10:00:00.100Z");
    const open = order("OPEN", "2026-11-24T10:00:00.300Z");
    expect(isOlderState(submitted, open)).toBe(true);
    expect(isOlderState(open, submitted)).toBe(false);
    // A fill moves an OPEN order on without changing its status: the later time wins.
    expect(isOlderState(order("OPEN", "2026-11-24T10:00:01Z"), open)).toBe(false);
  });

  it("breaks a tie of times (or no times) by how far the status has come", () => {
    const at = "2026-11-24T10:00:00.100Z";
    expect(isOlderState(order("SUBMITTED", at), order("OPEN", at))).toBe(true);
    expect(isOlderState(order("CANCELLED", at), order("OPEN", at))).toBe(false);
    expect(isOlderState({ status: "PENDING" }, { status: "COMPLETED" })).toBe(true);
    expect(isOlderState({ status: "COMPLETED" }, { status: "PENDING" })).toBe(false);
  });

  it("reads a transfer's updated_at", () => {
    const pending = { status: "PENDING", updated_at: "2026-11-24T10:00:00.500Z" };
    const completed = { status: "COMPLETED", updated_at: "2026-11-24T10:00:00.400Z" };
    expect(isOlderState(completed, pending)).toBe(true);
  });
});
