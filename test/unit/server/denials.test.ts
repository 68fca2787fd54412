import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AuditEvent } from "@/lib/server/audit-trail";
import { DENIAL_WINDOW_MS, DENIED_CALLERS_PER_WINDOW, denialLog } from "@/lib/server/http/denials";
import { log } from "@/lib/server/ops/log";

const refusal = (ip: string, path = "/api/v2/transfer/internal"): AuditEvent => ({
  action: "access.denied",
  ip,
  subject: `POST ${path}`,
  detail: { status: 401, reason: "no session" },
});

describe("refused writes in the audit trail (issue 16, finding 11)", () => {
  let written: AuditEvent[];
  let record: ReturnType<typeof denialLog>;
  beforeEach(() => {
    vi.useFakeTimers();
    written = [];
    record = denialLog(async (e) => void written.push(e));
  });
  afterEach(() => vi.useRealTimers());

  it("writes a caller's first refusal at once, and one entry counting the rest of its minute", async () => {
    for (let i = 0; i < 500; i++) record("203.0.113.7", refusal("203.0.113.7", `/api/x/${i}`));
    expect(written).toEqual([refusal("203.0.113.7", "/api/x/0")]);
    await vi.advanceTimersByTimeAsync(DENIAL_WINDOW_MS);
    expect(written).toEqual([
      refusal("203.0.113.7", "/api/x/0"),
      {
        ...refusal("203.0.113.7", "/api/x/499"),
        detail: { status: 401, reason: "no session", repeats: 499, window_seconds: 60 },
      },
    ]);
    // A new minute: the caller's next refusal is written again.
    record("203.0.113.7", refusal("203.0.113.7"));
    expect(written).toHaveLength(3);
  });

  it("a flood from many addresses grows the trail by a bounded number of entries a minute, and counts the rest", async () => {
    for (let i = 0; i < 5_000; i++) record(`10.0.${i >> 8}.${i & 255}`, refusal(`10.0.${i >> 8}.${i & 255}`));
    expect(written).toHaveLength(DENIED_CALLERS_PER_WINDOW);
    await vi.advanceTimersByTimeAsync(DENIAL_WINDOW_MS);
    expect(written).toHaveLength(DENIED_CALLERS_PER_WINDOW + 1);
    expect(written.at(-1)).toMatchObject({
      action: "access.denied",
      detail: { reason: "too many callers", unrecorded: 5_000 - DENIED_CALLERS_PER_WINDOW },
    });
  });

  it("never throws at the caller when the trail cannot be written", async () => {
    const failing = denialLog(async () => {
      throw new Error("database down");
    });
    const spy = vi.spyOn(log, "error").mockImplementation(() => {});
    expect(() => failing("x", refusal("x"))).not.toThrow();
    await vi.advanceTimersByTimeAsync(0);
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });
});
