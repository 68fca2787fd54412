import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MARKET_MAKER_PROFILE_ID, profileId } from "@/lib/sandbox/seed";
import type { PlannedTransfer, RebalanceTarget } from "@/lib/shared/rebalance-plan";
import { REBALANCE_MAX_TARGETS } from "@/lib/shared/rebalance-targets";
import { addDecimal, ASSETS, compareDecimal, subtractDecimal } from "@/lib/spec";
import {
  expectProblem,
  inProcessDashboard,
  rawCall,
  SETTLEMENT,
  TRADING,
  TREASURY,
  type Answer,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";

/**
 * Rebalancing's server side (issue 27), its route handlers in process on each database: the
 * targets read and replaced as a whole by ops and admins only, every refused field named by its
 * path (`targets[2].band`), a profile the service does not have refused, each replacement audited
 * with its before and after; and the plan from the sandbox's real balances, reading only the
 * profiles with a target, never drawing one below its target, and a 503 when a balance cannot be read.
 * Who may call which route is also in access.test.ts's table.
 */

const TARGETS = "/api/rebalance/targets";
const PLAN = "/api/rebalance/plan";
const RESERVE = profileId("operations-reserve");
const balancesPath = (profile: string) => `/sandbox/v2/profiles/${profile}/balances`;

const target = (profile_id: string, asset: string, t: string, band = "0"): RebalanceTarget => ({
  profile_id,
  asset,
  target: t,
  band,
});

interface AuditItem {
  action: string;
  actor_email: string;
  actor_role: string;
  subject: string;
  detail: { before: RebalanceTarget[]; after: RebalanceTarget[] };
}

describe.each<Database>(["sqlite", "postgres"])("rebalancing on %s", (database) => {
  let d: InProcessDashboard;
  beforeAll(async () => {
    // A runtime of its own: its targets and the sandbox's balances are this file's alone.
    d = await inProcessDashboard({ database });
  });
  afterAll(() => d?.dispose());
  afterEach(() => d.proxy.clearFaults());

  const put = (body: unknown, who: "ops" | "admin" = "admin") => d.as[who].call("PUT", TARGETS, body);
  const stored = async (): Promise<RebalanceTarget[]> => {
    const res = await d.as.admin.call("GET", TARGETS);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.targets;
  };
  const setTargets = async (targets: RebalanceTarget[]) => {
    const res = await put({ targets });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.targets as RebalanceTarget[];
  };
  /** Requests that reached the service while `run` ran, token requests aside. */
  async function sentDuring(run: () => Promise<Answer>): Promise<{ res: Answer; sent: string[] }> {
    const mark = d.proxy.requests.length;
    const res = await run();
    const sent = d.proxy.requests
      .slice(mark)
      .filter((r) => !r.path.endsWith("/oauth2/token"))
      .map((r) => `${r.method} ${r.path}`);
    return { res, sent };
  }
  const audited = async (event = "rebalance.targets_changed"): Promise<AuditItem[]> => {
    const res = await d.as.admin.call("GET", `/api/audit?event=${event}&limit=200`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items;
  };
  /** What the sandbox says each profile has available of `asset` now. */
  const available = async (profile: string, asset: string): Promise<string> => {
    const res = await d.sandbox.call("GET", `/profiles/${profile}/balances`);
    expect(res.status).toBe(200);
    return (res.body.items as { asset: string; available: string }[]).find((b) => b.asset === asset)?.available ?? "0";
  };

  describe("the targets", () => {
    it("starts with none, stores a replacement as sent (by profile, then asset), and a second replaces the whole set", async () => {
      await setTargets([]);
      expect(await stored()).toEqual([]);
      const first = [
        target(SETTLEMENT, "USD", "2500000.50", "1000"),
        target(TREASURY, "USD", "20000000", "0"),
        target(SETTLEMENT, "BTC", "0.00000001", "0.000000005"),
        target(TREASURY, "EUR", "0", "0"),
      ];
      const answer = await setTargets(first);
      const ordered = [...first].sort((a, b) =>
        a.profile_id === b.profile_id ? (a.asset < b.asset ? -1 : 1) : a.profile_id < b.profile_id ? -1 : 1,
      );
      expect(answer).toEqual(ordered);
      expect(await stored()).toEqual(ordered);
      // Amounts come back as the exact strings sent: no float, no trimming.
      expect((await stored()).find((t) => t.asset === "USD" && t.profile_id === SETTLEMENT)?.target).toBe("2500000.50");

      const second = [target(TRADING, "ETH", "100", "5")];
      expect(await setTargets(second)).toEqual(second);
      expect(await stored()).toEqual(second);
      // Ops may read and replace them too.
      expect((await d.as.ops.call("GET", TARGETS)).body).toEqual({ targets: second });
      expect((await put({ targets: [] }, "ops")).body).toEqual({ targets: [] });
      expect(await stored()).toEqual([]);
    });

    it("applies two replacements sent at once one after the other: each one's before is what the other left", async () => {
      const start = await setTargets([target(TREASURY, "USD", "1")]);
      const a = [target(TRADING, "USD", "2"), target(SETTLEMENT, "EUR", "3")];
      const b = [target(RESERVE, "BTC", "4")];
      const answers = await Promise.all([put({ targets: a }), put({ targets: b }, "ops")]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const [second, first] = (await audited()).slice(0, 2).map((e) => e.detail);
      expect(first!.before).toEqual(start);
      expect(second!.before).toEqual(first!.after);
      expect(await stored()).toEqual(second!.after);
      expect([first!.after, second!.after]).toEqual(
        expect.arrayContaining([answers[0]!.body.targets, answers[1]!.body.targets]),
      );
    });

    it("takes a target for every asset of every profile of the desk at once", async () => {
      const all = [TREASURY, TRADING, SETTLEMENT, RESERVE].flatMap((p) =>
        ASSETS.map((a) => target(p, a, "1000", "10")),
      );
      expect(await setTargets(all)).toHaveLength(all.length);
      expect(await stored()).toHaveLength(all.length);
      await setTargets([]);
    });

    const ok = () => target(TREASURY, "USD", "1000", "10");
    const BAD: [string, unknown, string, RegExp][] = [
      ["no targets", {}, "targets", /Targets is required/],
      ["targets that are not a list", { targets: { 0: ok() } }, "targets", /must be a list/],
      ["an unknown field beside them", { targets: [ok()], dry_run: true }, "dry_run", /Unknown field "dry_run"/],
      ["a target that is not an object", { targets: ["USD 1000"] }, "targets[0]", /must be an object/],
      [
        "a target without its profile",
        { targets: [{ ...ok(), profile_id: undefined }] },
        "targets[0].profile_id",
        /Profile is required/,
      ],
      [
        "a profile id with a slash",
        { targets: [{ ...ok(), profile_id: "a/b" }] },
        "targets[0].profile_id",
        /only letters, digits/,
      ],
      [
        "an unknown asset",
        { targets: [ok(), { ...ok(), asset: "DOGE" }] },
        "targets[1].asset",
        /Asset must be one of USD, EUR/,
      ],
      ["an asset in lower case", { targets: [{ ...ok(), asset: "usd" }] }, "targets[0].asset", /Asset must be one of/],
      [
        "a target as a JSON number",
        { targets: [{ ...ok(), target: 1000 }] },
        "targets[0].target",
        /written as a string/,
      ],
      ["a negative target", { targets: [{ ...ok(), target: "-1" }] }, "targets[0].target", /no sign/],
      [
        "a target with an exponent",
        { targets: [{ ...ok(), target: "1e6" }] },
        "targets[0].target",
        /no sign, exponent/,
      ],
      ["a target with a separator", { targets: [{ ...ok(), target: "1,000" }] }, "targets[0].target", /separators/],
      [
        "a target past 18 decimal places",
        { targets: [{ ...ok(), target: "0.0000000000000000001" }] },
        "targets[0].target",
        /at most 18 decimal places/,
      ],
      [
        "a target past 20 digits",
        { targets: [{ ...ok(), target: "123456789012345678901" }] },
        "targets[0].target",
        /at most 20 digits/,
      ],
      ["no band", { targets: [{ ...ok(), band: undefined }] }, "targets[0].band", /Band is required/],
      ["an empty band", { targets: [{ ...ok(), band: "" }] }, "targets[0].band", /Band must be a decimal number/],
      ["a negative band", { targets: [ok(), target(TRADING, "USD", "5", "-0.5")] }, "targets[1].band", /no sign/],
      [
        "an unknown field in a target",
        { targets: [{ ...ok(), desk: "fx" }] },
        "targets[0].desk",
        /Unknown field "desk"/,
      ],
      [
        "two targets for one profile and asset",
        { targets: [ok(), target(TRADING, "USD", "5"), { ...ok(), target: "2000" }] },
        "targets[2].asset",
        new RegExp(`Profile ${TREASURY} already has a target in USD \\(targets\\[0\\]\\)`),
      ],
      [
        "more targets than allowed",
        {
          targets: Array.from({ length: REBALANCE_MAX_TARGETS + 1 }, (_, i) => target(`p-${i}`, "USD", "1")),
        },
        "targets",
        new RegExp(`at most ${REBALANCE_MAX_TARGETS} targets`),
      ],
    ];

    it.each(BAD)("refuses %s: 400 naming %s and its rule, nothing stored or sent", async (_, body, field, rule) => {
      const before = await setTargets([target(SETTLEMENT, "USD", "1", "0")]);
      const { res, sent } = await sentDuring(() => put(body));
      const p = expectProblem(res, 400);
      expect(p.meta.errors).toEqual([{ field, message: expect.stringMatching(rule) }]);
      expect(p.detail).toContain(`${field}: `);
      expect(sent).toEqual([]);
      expect(await stored()).toEqual(before);
    });

    it("names every refused field of every target at once, in the list's order", async () => {
      const res = await put({
        targets: [
          target(TREASURY, "USD", "1"),
          { profile_id: TRADING, asset: "XYZ", target: "1", band: 2 },
          target(TREASURY, "USD", "-3"),
        ],
        note: "x",
      });
      expect(expectProblem(res, 400).meta.errors.map((e: { field: string }) => e.field)).toEqual([
        "note",
        "targets[1].asset",
        "targets[1].band",
        "targets[2].target",
        "targets[2].asset",
      ]);
    });

    it.each([
      ["not JSON", "{targets: []", "body"],
      ["a JSON array", "[]", "body"],
    ])("refuses a body that is %s: 400 naming %s", async (_, text, field) => {
      const res = await rawCall(d.target, "PUT", TARGETS, {
        body: text,
        headers: { Cookie: d.as.admin.cookie(), Origin: d.url, "Content-Type": "application/json" },
      });
      expect(expectProblem(res, 400).meta.errors).toEqual([{ field, message: expect.any(String) }]);
    });

    it("refuses a profile the service does not have (another customer's too), naming each target that names it", async () => {
      const before = await setTargets([]);
      const nowhere = randomUUID();
      const { res, sent } = await sentDuring(() =>
        put({
          targets: [
            target(TREASURY, "USD", "1"),
            target(nowhere, "USD", "1"),
            target(MARKET_MAKER_PROFILE_ID, "BTC", "1"),
            target(nowhere, "EUR", "1"),
          ],
        }),
      );
      const p = expectProblem(res, 400);
      expect(p.meta.errors).toEqual([
        { field: "targets[1].profile_id", message: `There is no profile ${nowhere} at the service` },
        { field: "targets[2].profile_id", message: `There is no profile ${MARKET_MAKER_PROFILE_ID} at the service` },
        { field: "targets[3].profile_id", message: `There is no profile ${nowhere} at the service` },
      ]);
      // Each profile named is looked up once.
      expect([...sent].sort()).toEqual(
        [TREASURY, nowhere, MARKET_MAKER_PROFILE_ID].map((p) => `GET ${balancesPath(p)}`).sort(),
      );
      expect(await stored()).toEqual(before);
    });

    it("stores nothing when the service cannot say whether a profile exists (503)", async () => {
      const before = await setTargets([target(TREASURY, "USD", "1")]);
      d.proxy.fail({ method: "GET", path: balancesPath(SETTLEMENT) }, { kind: "status", status: 503 }, 5);
      const p = expectProblem(await put({ targets: [target(SETTLEMENT, "USD", "2")] }), 503);
      expect(p.meta).toEqual({ profile_ids: [SETTLEMENT] });
      expect(await stored()).toEqual(before);
    });

    it.each(["viewer", "trader", "approver"] as const)(
      "refuses the %s role (403 naming the action) on every rebalancing route, storing nothing",
      async (role) => {
        const before = await setTargets([target(TREASURY, "USD", "1")]);
        for (const [method, path, body] of [
          ["GET", TARGETS],
          ["PUT", TARGETS, { targets: [] }],
          ["GET", PLAN],
        ] as const) {
          const { res, sent } = await sentDuring(() => d.as[role].call(method, path, body));
          expect(expectProblem(res, 403).meta).toEqual({ role, action: "rebalance:targets" });
          expect(sent).toEqual([]);
        }
        expect(await stored()).toEqual(before);
      },
    );

    it("refuses a caller without a session (401), and a change from another origin (403)", async () => {
      const before = await setTargets([target(TREASURY, "USD", "1")]);
      for (const [method, path] of [
        ["GET", TARGETS],
        ["PUT", TARGETS],
        ["GET", PLAN],
      ]) {
        const res = await rawCall(d.target, method!, path!, {
          body: method === "PUT" ? { targets: [] } : undefined,
          headers: { Origin: d.url },
        });
        expectProblem(res, 401);
      }
      const cross = await rawCall(d.target, "PUT", TARGETS, {
        body: { targets: [] },
        headers: { Cookie: d.as.admin.cookie(), Origin: "https://evil.example" },
      });
      expect(expectProblem(cross, 403).detail).toMatch(/cross-origin/);
      expect(await stored()).toEqual(before);
    });

    it("audits each replacement with who made it and the set before and after", async () => {
      const before = await setTargets([target(TREASURY, "USD", "1", "0")]);
      const after = [target(SETTLEMENT, "USD", "5", "1"), target(TREASURY, "EUR", "7.5", "0.5")];
      const res = await put({ targets: after }, "ops");
      expect(res.status).toBe(200);
      const [latest] = await audited();
      expect(latest).toMatchObject({
        action: "rebalance.targets_changed",
        actor_email: "ops@example.com",
        actor_role: "ops",
        subject: "rebalance-targets",
        detail: { before, after: res.body.targets },
      });
      // The family filter takes it too.
      expect((await audited("rebalance"))[0]).toEqual(latest);
      // A refused replacement is not a change.
      const count = (await audited()).length;
      expectProblem(await put({ targets: [target(TREASURY, "DOGE", "1")] }), 400);
      expect(await audited()).toHaveLength(count);
    });
  });

  describe("the plan", () => {
    const byRoute = (t: PlannedTransfer) => `${t.asset}|${t.from_profile_id}|${t.to_profile_id}`;
    const sum = (amounts: string[]) => amounts.reduce(addDecimal, "0");

    it("is empty with no targets, and reads nothing", async () => {
      await setTargets([]);
      const { res, sent } = await sentDuring(() => d.as.ops.call("GET", PLAN));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ transfers: [], short: [] });
      expect(sent).toEqual([]);
    });

    it("moves the excess of profiles above their targets to those below their bands, from the sandbox's balances", async () => {
      const usd = Object.fromEntries(
        await Promise.all([TREASURY, TRADING, SETTLEMENT, RESERVE].map(async (p) => [p, await available(p, "USD")])),
      ) as Record<string, string>;
      const targets = [
        // Sources: 1,000,000 and 700,000 USD above their targets.
        target(TREASURY, "USD", subtractDecimal(usd[TREASURY]!, "1000000"), "0"),
        target(TRADING, "USD", subtractDecimal(usd[TRADING]!, "700000"), "0"),
        // Short: 1,500,000 and 200,000 USD below their targets, past their bands.
        target(SETTLEMENT, "USD", addDecimal(usd[SETTLEMENT]!, "1500000"), "100000"),
        target(RESERVE, "USD", addDecimal(usd[RESERVE]!, "200000"), "50000"),
        // Below its target, within its band: left alone.
        target(SETTLEMENT, "BTC", addDecimal(await available(SETTLEMENT, "BTC"), "0.5"), "1"),
        // Above its target with no one short in BTC: nothing moves.
        target(TREASURY, "BTC", subtractDecimal(await available(TREASURY, "BTC"), "50"), "0"),
        // Short in EUR with no source (Treasury and Trading hold EUR, but have no EUR target).
        target(SETTLEMENT, "EUR", addDecimal(await available(SETTLEMENT, "EUR"), "10000.25"), "0"),
      ];
      await setTargets(targets);
      const { res, sent } = await sentDuring(() => d.as.admin.call("GET", PLAN));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // Only the profiles with a target were read, each once; nothing was sent.
      expect([...sent].sort()).toEqual(
        [TREASURY, TRADING, SETTLEMENT, RESERVE].map((p) => `GET ${balancesPath(p)}`).sort(),
      );

      const transfers = res.body.transfers as PlannedTransfer[];
      // Reserve's 200,000 from the smallest source that covers it whole (Trading's 700,000); Settlement's
      // 1,500,000 from Treasury's 1,000,000 and what Trading has left.
      expect([...transfers].sort((a, b) => (byRoute(a) < byRoute(b) ? -1 : 1))).toEqual(
        [
          { from_profile_id: TRADING, to_profile_id: RESERVE, asset: "USD", amount: "200000" },
          { from_profile_id: TRADING, to_profile_id: SETTLEMENT, asset: "USD", amount: "500000" },
          { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "USD", amount: "1000000" },
        ].sort((a, b) => (byRoute(a) < byRoute(b) ? -1 : 1)),
      );
      expect(res.body.short).toEqual([{ profile_id: SETTLEMENT, asset: "EUR", missing: "10000.25" }]);

      // No source drawn below its target, no one brought past theirs, and only profiles with a target.
      for (const t of targets) {
        const have = await available(t.profile_id, t.asset);
        const out = sum(
          transfers.filter((x) => x.from_profile_id === t.profile_id && x.asset === t.asset).map((x) => x.amount),
        );
        const into = sum(
          transfers.filter((x) => x.to_profile_id === t.profile_id && x.asset === t.asset).map((x) => x.amount),
        );
        expect(compareDecimal(out, "0") === 0 || compareDecimal(into, "0") === 0).toBe(true);
        if (compareDecimal(out, "0") > 0)
          expect(compareDecimal(subtractDecimal(have, out), t.target)).toBeGreaterThanOrEqual(0);
        if (compareDecimal(into, "0") > 0)
          expect(compareDecimal(addDecimal(have, into), t.target)).toBeLessThanOrEqual(0);
      }
      const targeted = new Set(targets.map((t) => `${t.profile_id}|${t.asset}`));
      for (const x of transfers) {
        expect(targeted.has(`${x.from_profile_id}|${x.asset}`)).toBe(true);
        expect(targeted.has(`${x.to_profile_id}|${x.asset}`)).toBe(true);
      }
    });

    it("answers 503 naming the profile when the service cannot say what it holds, and sends nothing", async () => {
      await setTargets([target(TREASURY, "USD", "1"), target(SETTLEMENT, "USD", "100000000")]);
      for (const fault of [
        { kind: "status", status: 503 },
        { kind: "drop-before" },
        { kind: "status", status: 500 },
      ] as const) {
        d.proxy.fail({ method: "GET", path: balancesPath(SETTLEMENT) }, fault, 5);
        const { res, sent } = await sentDuring(() => d.as.ops.call("GET", PLAN));
        const p = expectProblem(res, 503);
        expect(p.title).toBe("Balances Unavailable");
        expect(p.meta).toEqual({ profile_ids: [SETTLEMENT] });
        expect(sent.every((s) => s.startsWith("GET "))).toBe(true);
        d.proxy.clearFaults();
      }
      // A balance the plan cannot weigh exactly is not one the service said.
      d.proxy.fail(
        { method: "GET", path: balancesPath(TREASURY) },
        { kind: "rewrite", body: (json) => ({ items: json.items.map((b: object) => ({ ...b, available: 12.5 })) }) },
        5,
      );
      expect(expectProblem(await d.as.ops.call("GET", PLAN), 503).meta).toEqual({ profile_ids: [TREASURY] });
      d.proxy.clearFaults();
      expect((await d.as.ops.call("GET", PLAN)).status).toBe(200);
    });

    it("answers 409 naming a profile the service no longer has, until the targets change", async () => {
      await setTargets([target(TREASURY, "USD", "1"), target(SETTLEMENT, "USD", "1")]);
      d.proxy.fail({ method: "GET", path: balancesPath(SETTLEMENT) }, { kind: "status", status: 404 }, 5);
      const p = expectProblem(await d.as.admin.call("GET", PLAN), 409);
      expect(p.meta).toEqual({ profile_ids: [SETTLEMENT] });
    });
  });
});
