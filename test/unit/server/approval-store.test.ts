import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "@/lib/shared/policy";
import { listApprovals } from "@/lib/server/approvals/decisions";
import type { Db } from "@/lib/server/db";
import { addVote, approvalPage, insertApproval, votesOf } from "@/lib/server/db/approvals";
import { postgres, sqlite, suiteDatabase } from "../../support/databases";
import { testRuntime } from "../../support/runtime";

/**
 * The approvals' store (lib/server/db/approvals.ts), on both databases: a page of requests reads
 * their approvals in one query, so listing costs the same few queries whatever the page's size.
 */

const ops = { email: "ops@example.com", name: "Oakley Ops", role: "ops" };
const approver = (n: number) => ({ email: `approver${n}@example.com`, role: "approver" });
const RULE = DEFAULT_POLICY.approval_rules.find((r) => r.kind === "transfer")!;
const PAGE = 200;

/** `db` with every query it runs counted. */
function counting(db: Db) {
  let queries = 0;
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => {
      queries += 1;
      return result;
    },
  };
  return { db: db.withPlugin(counter), queries: () => queries };
}

describe.each([sqlite, postgres])("the approvals' store on $name", (backend) => {
  const suite = suiteDatabase(backend, ["approval_votes", "approvals"]);
  let db: Db;
  beforeEach(() => ({ db } = suite));

  let rt: Awaited<ReturnType<typeof testRuntime>>;
  beforeAll(async () => (rt = await testRuntime(() => ({}))));
  afterAll(() => rt?.dispose());

  /** PAGE transfers held a second apart, open for hours; request i has i % 3 approvals, the first approver's first. */
  async function holdPage() {
    const start = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < PAGE; i++) {
      const refId = `held-${i}`;
      const row = await insertApproval(db, ops, {
        kind: "transfer",
        refId,
        profileId: "treasury",
        request: {
          from_profile_id: "treasury",
          to_profile_id: "settlement",
          asset: "USD",
          amount: "20000",
          ref_id: refId,
        },
        valueUsd: "20000",
        rule: RULE,
        at: new Date(start + i * 1000),
      });
      for (let n = i % 3; n > 0; n--) await addVote(db, row.id, approver(n), new Date(start + i * 1000 + n));
      ids.push(row.id);
    }
    return ids;
  }

  it(`reads a page of ${PAGE} requests in two queries, each with its own approvals in order`, async () => {
    const ids = await holdPage();
    const counted = counting(db);
    const page = await approvalPage(counted.db, { limit: PAGE });
    expect(counted.queries()).toBe(2);
    expect(page.map((a) => a.id)).toEqual([...ids].reverse());
    for (const approval of page) {
      const i = Number(String(approval.request.ref_id).slice("held-".length));
      expect(approval.approvals.map((v) => v.by)).toEqual(
        Array.from({ length: i % 3 }, (_, k) => approver(k + 1).email),
      );
    }
  });

  it(`lists ${PAGE} requests (GET /api/approvals) in at most three queries`, async () => {
    await holdPage();
    const counted = counting(db);
    const listed = await listApprovals({ ...rt.runtime, db: counted.db }, "PENDING");
    expect(listed).toHaveLength(PAGE);
    expect(listed.reduce((sum, a) => sum + a.approvals.length, 0)).toBe(199);
    expect(counted.queries()).toBeLessThanOrEqual(3);
  });

  it("reads no votes for no requests, and each request's own", async () => {
    const ids = await holdPage();
    const [first, second] = [ids[1]!, ids[2]!];
    const counted = counting(db);
    expect(await votesOf(counted.db, [])).toEqual(new Map());
    expect(counted.queries()).toBe(0);
    const votes = await votesOf(counted.db, [first, second]);
    expect(votes.get(first)?.map((v) => v.by)).toEqual(["approver1@example.com"]);
    expect(votes.get(second)?.map((v) => v.by)).toEqual(["approver1@example.com", "approver2@example.com"]);
    expect(counted.queries()).toBe(1);
  });
});
