import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "@/lib/shared/roles";
import { signInAll, type Client } from "../../support/dashboard";
import { resetApp } from "../../support/shared-app";
import { startStrictDouble, type StrictDouble } from "../../support/strict-double";

/**
 * The pages of the built app against a strict double of the service (test/support/strict-double.ts),
 * which holds every request to the published reference and records each one it refuses: the
 * lane's shared app reset to talk to the double, which forwards what passes to the app's
 * embedded sandbox. The other journeys (the API routes the pages' client code calls, the live
 * stream's watcher, the CSV exports, lost answers, a revoked token) and the double's own rules
 * run in process: test/routes/strict-service.test.ts.
 *
 * The dashboard is configured as production would be for a service that is not its sandbox:
 * no SERVICE_*_RATE_PER_SECOND (it budgets the published rates), the lockout as long as the
 * service's penalty (short here, so that a failure cannot hold the run for five minutes).
 */

const PENALTY_SECONDS = 3;
/** The dashboard's time limit for one call: a held answer is given up after it. */
const SERVICE_TIMEOUT_MS = 3000;

let double: StrictDouble;
let as: Record<Role, Client>;

beforeAll(async () => {
  double = await startStrictDouble({ penaltyMs: PENALTY_SECONDS * 1000 });
  const app = await resetApp({
    ...double.env(),
    SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS),
    SERVICE_RATE_PENALTY_SECONDS: String(PENALTY_SECONDS),
    // Unset ("" is unset): the published rates, as in production (the test helpers raise them).
    SERVICE_API_RATE_PER_SECOND: "",
    SERVICE_TRANSFER_RATE_PER_SECOND: "",
    SERVICE_ORDER_BOOK_RATE_PER_SECOND: "",
    SERVICE_TOKEN_RATE_PER_SECOND: "",
  });
  double.setTarget(app.port);
  as = await signInAll(app);
});

// A journey that earned a lockout does not spoil the next one: each starts with the caller let in.
beforeEach(() => double.unlocked());

afterAll(async () => {
  if (double) {
    // The run's figure: what the double refused, by reason and one by one.
    console.log(`strict double: ${double.refusals.length} refusals`, JSON.stringify(double.refusalsByReason()));
    for (const r of double.refusals) console.log(`  ${r.reason}: ${r.method} ${r.path}${r.search} (${r.detail})`);
  }
  await double?.close();
});

interface Read {
  what: string;
  status: number;
  body: any;
}

/**
 * Each call of a journey, made whatever the one before answered (so that every read is put to
 * the double), then judged together: every answer as expected, and nothing refused meanwhile.
 */
async function journey(run: (read: (who: Client, path: string, status?: number) => Promise<Read>) => Promise<void>) {
  const mark = double.refusals.length;
  const reads: (Read & { expected: number })[] = [];
  await run(async (who, path, status = 200) => {
    const res = await who.call("GET", path);
    const read = { what: `GET ${path}`, status: res.status, body: res.body };
    reads.push({ ...read, expected: status });
    return read;
  });
  expect(double.refusals.slice(mark)).toEqual([]);
  expect(
    reads.filter((r) => r.status !== r.expected).map((r) => `${r.what}: ${r.status} ${JSON.stringify(r.body)}`),
  ).toEqual([]);
}

const ROLES: Role[] = ["viewer", "trader", "ops", "approver", "admin"];
const PAGES = ["/orders", "/transfers", "/balances", "/approvals", "/activity", "/policies", "/sessions"];

describe("the pages against the strict double", () => {
  it("1. every page renders for each role that sees it (the admin's pages redirect the others)", async () => {
    await journey(async (read) => {
      for (const role of ROLES) {
        for (const page of PAGES) await read(as[role], page, page === "/sessions" && role !== "admin" ? 307 : 200);
      }
      await read(as.admin, "/activity?view=audit");
    });
  });
});
