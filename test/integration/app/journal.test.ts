import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Match } from "../../support/fault-proxy";
import {
  eventually,
  expectProblem,
  newRef,
  SERVICE_TIMEOUT_MS,
  smallOrder,
  startDashboard,
  TRADING,
  TREASURY,
  type OwnDashboard,
  type Database,
} from "../../support/dashboard";

/**
 * The journal of creates, on each database: entries a `kill -9` left pending, reconciled after
 * the restart (a test of the process: it keeps a server of its own). What GET /api/activity
 * shows and idempotent creates through the journal are tried in process: test/routes/journal.test.ts.
 * PostgreSQL comes from the integration project's globalSetup; without it these tests fail
 * (startDashboard throws), they never skip.
 */

const createPath = (profile: string): Match => ({ method: "POST", path: `/sandbox/v2/profiles/${profile}/orders` });

describe.each<Database>(["sqlite", "postgres"])("the journal on %s", (database) => {
  let d: OwnDashboard;
  let notStarted: unknown;

  beforeAll(async () => {
    try {
      // Its own server, not the shared one: it is killed and restarted, on each database.
      d = await startDashboard({ database });
    } catch (error) {
      notStarted = error; // every test below fails with it (a failed hook would only mark them skipped)
    }
  });
  beforeEach(() => {
    if (notStarted) throw notStarted;
  });
  afterAll(() => d?.dispose());

  describe("kill -9 while creates are in flight", () => {
    const forwarded = newRef("kill");
    const held = newRef("kill");

    it("shows both creates pending while the service holds them, then dies", async () => {
      // Every attempt held: the one to Trading reached the service, the one to Treasury did not.
      d.proxy.fail(createPath(TRADING), { kind: "forward-then-hold" }, 10);
      d.proxy.fail(createPath(TREASURY), { kind: "hold" }, 10);
      const since = d.proxy.requests.length; // earlier tests' creates don't count
      const inFlight = [
        d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(forwarded)),
        d.as.trader.call("POST", `/api/v2/profiles/${TREASURY}/orders`, smallOrder(held)),
      ].map((p) => p.catch(() => "killed"));
      await d.proxy.waitFor(createPath(TRADING), 1, { forwarded: true, since });
      await d.proxy.waitFor(createPath(TREASURY), 1, { since });
      for (const ref of [forwarded, held]) {
        expect(await d.journal(ref)).toEqual([expect.objectContaining({ status: "pending" })]);
      }
      await d.restart("SIGKILL");
      expect(await Promise.all(inFlight)).toEqual(["killed", "killed"]);
      d.proxy.clearFaults();
    });

    it("after the restart, the create the service received is reconciled as succeeded with its record", async () => {
      const entry = await eventually(
        async () => (await d.journal(forwarded)).find((e) => e.status !== "pending"),
        15_000,
        "the forwarded create to be reconciled",
      );
      const orders = await d.sandboxOrders(forwarded);
      expect(orders).toHaveLength(1);
      expect(entry).toMatchObject({ status: "succeeded", http_status: 200, result_id: orders[0]!.id });
      expect(entry.record).toMatchObject({ id: orders[0]!.id, ref_id: forwarded });
      expect(await d.journal(forwarded)).toHaveLength(1);
    });

    it("after the restart, the create the service never received is reconciled as failed, Not Sent", async () => {
      const entry = await eventually(
        async () => (await d.journal(held)).find((e) => e.status !== "pending"),
        15_000,
        "the held create to be reconciled",
      );
      expect(entry).toMatchObject({ status: "failed", problem: { title: "Not Sent" } });
      expect(await d.sandboxOrders(held)).toHaveLength(0);
    });

    it("after the restart, service failures still map to problems and creates still retry safely", async () => {
      d.proxy.fail({ method: "GET", path: "/sandbox/v2/profiles" }, { kind: "delay", ms: SERVICE_TIMEOUT_MS + 1000 });
      expect(expectProblem(await d.as.viewer.call("GET", "/api/v2/profiles"), 504).title).toBe("Service Timeout");
      d.proxy.fail(createPath(TRADING), { kind: "drop-after" });
      const ref = newRef();
      const res = await d.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
      expect(res.status).toBe(200);
      expect(await d.sandboxOrders(ref)).toHaveLength(1);
    });
  });
});
