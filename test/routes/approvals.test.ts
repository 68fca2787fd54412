import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableAuditTriggers, openAppDatabase } from "../support/tamper";
import {
  expectProblem,
  inProcessDashboard,
  newRef,
  SETTLEMENT,
  TREASURY,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * Four eyes, on both databases, the route handlers called in process: a large transfer is held
 * (202), approved by someone else, and sent once; self-approval, the wrong role, concurrent
 * approvals, rejection and withdrawal; and the audit trail verified, then tampered with and
 * caught, by the route and by `npm run audit:verify`.
 */

const bigTransfer = (ref: string, amount = "20000") => ({
  from_profile_id: TREASURY,
  to_profile_id: SETTLEMENT,
  asset: "USD",
  amount,
  ref_id: ref,
});

describe.each<Database>(["sqlite", "postgres"])("approvals on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    // A runtime of its own on each database: changes the policy everyone reads.
    d = await inProcessDashboard({ database });
  });
  afterAll(() => d?.dispose());

  let held = 0;
  // Each a different amount: the same transfer again within a minute would be asked about as a repeat.
  const hold = async (ref: string) => {
    held += 1;
    const res = await d.as.ops.call("POST", "/api/v2/transfer/internal", bigTransfer(ref, String(20000 + held)));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body.approval as { id: string; status: string; approvals_needed: number; expires_at: string };
  };

  it("holds a 20,000 USD transfer (202), sends nothing, and sends it once when an approver approves", async () => {
    const ref = newRef("four-eyes");
    const approval = await hold(ref);
    expect(approval).toMatchObject({
      status: "PENDING",
      kind: "transfer",
      requested_by: "ops@example.com",
      approvals: [],
    });
    expect(approval.approvals_needed).toBe(1);
    expect(await d.sandboxTransfers(ref)).toEqual([]);

    const inbox = await d.as.approver.call("GET", "/api/approvals?status=PENDING");
    expect(inbox.body.items.map((a: { id: string }) => a.id)).toContain(approval.id);

    const approved = await d.as.approver.call("POST", `/api/approvals/${approval.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.approval).toMatchObject({
      status: "APPROVED",
      approvals: [{ by: "approver@example.com", role: "approver" }],
      outcome: { status: 200 },
    });
    expect((await d.sandboxTransfers(ref)).filter((t) => t.direction === "DEBIT")).toHaveLength(1);
    expect(await d.journal(ref)).toEqual([
      expect.objectContaining({ status: "succeeded", user_email: "ops@example.com" }),
    ]);
  });

  it("never lets the requester approve, nor a role without the approve permission", async () => {
    const approval = await hold(newRef("self"));
    expectProblem(await d.as.ops.call("POST", `/api/approvals/${approval.id}/approve`), 403);
    expectProblem(await d.as.trader.call("POST", `/api/approvals/${approval.id}/approve`), 403);
    expectProblem(await d.as.viewer.call("POST", `/api/approvals/${approval.id}/reject`, { reason: "no" }), 403);
  });

  it("sends once when approvals arrive at the same instant", async () => {
    const ref = newRef("race");
    const approval = await hold(ref);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? d.as.admin : d.as.approver).call("POST", `/api/approvals/${approval.id}/approve`),
      ),
    );
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect((await d.sandboxTransfers(ref)).filter((t) => t.direction === "DEBIT")).toHaveLength(1);
  });

  it("never sends a rejected or withdrawn request; a reason is required and kept; decided is final (409)", async () => {
    const rejectedRef = newRef("rejected");
    const rejected = await hold(rejectedRef);
    expectProblem(await d.as.approver.call("POST", `/api/approvals/${rejected.id}/reject`, {}), 400);
    const res = await d.as.approver.call("POST", `/api/approvals/${rejected.id}/reject`, { reason: "Wrong desk" });
    expect(res.body.approval).toMatchObject({
      status: "REJECTED",
      reason: "Wrong desk",
      decided_by: "approver@example.com",
    });
    expectProblem(await d.as.admin.call("POST", `/api/approvals/${rejected.id}/approve`), 409);

    const withdrawnRef = newRef("withdrawn");
    const withdrawn = await hold(withdrawnRef);
    expectProblem(await d.as.approver.call("POST", `/api/approvals/${withdrawn.id}/withdraw`), 403);
    expect((await d.as.ops.call("POST", `/api/approvals/${withdrawn.id}/withdraw`)).body.approval.status).toBe(
      "WITHDRAWN",
    );
    expectProblem(await d.as.approver.call("POST", `/api/approvals/${withdrawn.id}/approve`), 409);
    expect(await d.sandboxTransfers(rejectedRef)).toEqual([]);
    expect(await d.sandboxTransfers(withdrawnRef)).toEqual([]);
  });

  it("lets an admin tighten the policy at once, audited; the rule in force when asked stays with the request", async () => {
    const before = await hold(newRef("frozen"));
    const policy = (await d.as.viewer.call("GET", "/api/policies")).body.policy;
    const stricter = {
      ...policy,
      approval_rules: policy.approval_rules.map((r: { kind: string }) =>
        r.kind === "transfer" ? { ...r, approvals_needed: 2, open_minutes: 5 } : r,
      ),
    };
    expectProblem(await d.as.approver.call("PUT", "/api/policies", stricter), 403);
    const bad = expectProblem(
      await d.as.admin.call("PUT", "/api/policies", { ...stricter, approval_rules: [{ kind: "x" }] }),
      400,
    );
    expect(JSON.stringify(bad.meta)).toContain("approval_rules.0.kind");
    expect((await d.as.admin.call("PUT", "/api/policies", stricter)).status).toBe(200);
    const after = await hold(newRef("two"));
    expect(after.approvals_needed).toBe(2);
    expect((await d.as.viewer.call("GET", `/api/approvals/${before.id}`)).body.approval.approvals_needed).toBe(1);
    // Back to one approval loosens the controls: it waits for someone other than the admin who asked.
    const back = await d.as.admin.call("PUT", "/api/policies", policy);
    expect(back.status).toBe(202);
    expect(back.body.approval).toMatchObject({ kind: "policy", status: "PENDING" });
    expectProblem(await d.as.admin.call("POST", `/api/approvals/${back.body.approval.id}/approve`), 403);
    expect((await d.as.approver.call("POST", `/api/approvals/${back.body.approval.id}/approve`)).status).toBe(200);
    expect((await d.as.viewer.call("GET", "/api/policies")).body.policy).toEqual(policy);
  });

  it("verifies the audit chain, and finds a row edited in the database", async () => {
    const verified = await d.as.admin.call("GET", "/api/audit/verify");
    expect(verified.body).toEqual({ ok: true, entries: expect.any(Number) });
    expect(verified.body.entries).toBeGreaterThan(10);
    expectProblem(await d.as.approver.call("GET", "/api/audit/verify"), 403);

    await tamper(d, database, "update audit set detail_json = '{}' where seq = 3");
    expect((await d.as.admin.call("GET", "/api/audit/verify")).body).toMatchObject({
      ok: false,
      broken: { seq: 3, reason: "entry altered" },
    });
    // The command line, where the dashboard's data is: its database and its audit key.
    const cli = await promisify(execFile)(
      process.execPath,
      ["node_modules/.bin/tsx", "--conditions=react-server", "scripts/audit-verify.ts"],
      { env: { ...process.env, ...storeOf(d) } },
    ).catch((error: { code: number; stdout: string }) => error);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: false, broken: { seq: 3 } });
    // The command line is a process of its own (tsx compiles it first): more than a handler call's time.
  }, 30_000);
});

/** Where the runtime keeps its data: its database (PostgreSQL's URL, or SQLite under DATA_DIR) and its audit key. */
function storeOf(d: InProcessDashboard): Record<string, string> {
  const { DATA_DIR, DATABASE_URL, AUDIT_SECRET } = d.app.runtime.config;
  return { DATA_DIR, ...(DATABASE_URL ? { DATABASE_URL } : {}), ...(AUDIT_SECRET ? { AUDIT_SECRET } : {}) };
}

/** Edits the app's database directly, as someone owning its tables could (the audit trail's triggers switched off). */
async function tamper(d: InProcessDashboard, database: Database, statement: string) {
  const store = storeOf(d);
  const db = await openAppDatabase({ env: store, app: { dataDir: store.DATA_DIR! } });
  try {
    await disableAuditTriggers(db, database === "postgres");
    await db.run(statement);
  } finally {
    await db.close();
  }
}
