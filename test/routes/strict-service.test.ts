import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { marketsOffered } from "@/lib/shared/markets-offered";
import type { Role } from "@/lib/shared/roles";
import { marketsToValue } from "@/lib/spec/valuation";
import { openStream } from "../support/event-stream";
import {
  inProcessDashboard,
  newRef,
  SETTLEMENT,
  smallOrder,
  smallTransfer,
  TRADING,
  TREASURY,
  type Client,
  type InProcessDashboard,
} from "../support/dashboard";
import { DOUBLE_API, DOUBLE_TOKEN, inProcessStrictDouble, type InProcessStrictDouble } from "../support/strict-double";

/**
 * The back end's route handlers, in process, against a strict double of the service
 * (test/support/strict-double.ts) standing in front of the runtime's sandbox, which holds every
 * request to the published reference and records each one it refuses. Nine journeys drive what
 * the pages read (the API routes their client code calls, the live stream's watcher, both CSV
 * exports), a create of each kind whose answer is lost, and a token the service revoked; then the
 * run as a whole: the double refused nothing, and the service holds one record per ref_id. The
 * pages themselves are rendered by the running app against the double:
 * test/integration/app/strict-service.test.ts.
 *
 * The dashboard is configured as production would be for a service that is not its sandbox:
 * no SERVICE_*_RATE_PER_SECOND (it budgets the published rates), the lockout as long as the
 * service's penalty (short here, so that a failure cannot hold the run for five minutes).
 */

const PENALTY_SECONDS = 3;
/** The dashboard's time limit for one call: a held answer is given up after it. */
const SERVICE_TIMEOUT_MS = 1000;
/** The sandbox's SANDBOX_CANCEL_SETTLE_MS (its default): a cancel is acknowledged, the order CANCELLED this long after. */
const CANCEL_SETTLE_MS = 500;

let double: InProcessStrictDouble;
let d: InProcessDashboard;
let as: Record<Role, Client>;
/** Straight to the sandbox behind the double: what the service really holds. */
let sandbox: InProcessDashboard["sandbox"];
/** Made at the service directly (not through the dashboard): a resting order and a transfer to read. */
let order: { id: string; profile_id: string; ref_id: string };
let transfer: { id: string; group_id?: string; ref_id: string };

beforeAll(async () => {
  // In front of the sandbox where the runtime addresses "the service" (/sandbox/v2, /sandbox/oauth2/token).
  double = inProcessStrictDouble({ penaltyMs: PENALTY_SECONDS * 1000, prefix: "/sandbox" });
  d = await inProcessDashboard({
    env: {
      SERVICE_TIMEOUT_MS: String(SERVICE_TIMEOUT_MS),
      SERVICE_RATE_PENALTY_SECONDS: String(PENALTY_SECONDS),
      // Unset ("" is unset): the published rates, as in production (the test helpers raise them).
      SERVICE_API_RATE_PER_SECOND: "",
      SERVICE_TRANSFER_RATE_PER_SECOND: "",
      SERVICE_ORDER_BOOK_RATE_PER_SECOND: "",
      SERVICE_TOKEN_RATE_PER_SECOND: "",
    },
    wrapService: (service) => {
      double.setTarget(service);
      return double.fetch;
    },
  });
  as = d.as;
  sandbox = d.sandbox;
  const placed = await sandbox.call("POST", `/profiles/${TRADING}/orders`, smallOrder(newRef("strict")));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  order = placed.body;
  const sent = await sandbox.call("POST", "/transfer/internal", smallTransfer(newRef("strict")));
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  transfer = sent.body;
});

// A journey that earned a lockout does not spoil the next one: each starts with the caller let in.
beforeEach(() => double.unlocked());

afterAll(async () => {
  if (double) {
    // The run's figure: what the double refused, by reason and one by one.
    console.log(`strict double: ${double.refusals.length} refusals`, JSON.stringify(double.refusalsByReason()));
    for (const r of double.refusals) console.log(`  ${r.reason}: ${r.method} ${r.path}${r.search} (${r.detail})`);
  }
  await d?.dispose();
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

/** The day (UTC) of an instant, as the date filters pick it. */
const dayOf = (iso: string) => iso.slice(0, 10);
const nextDay = (iso: string) => new Date(Date.parse(iso) + 86_400_000).toISOString();

/** The service's records with this ref_id, straight from the sandbox. */
async function held(path: string, refId: string) {
  const res = await sandbox.call("GET", `${path}?ref_ids=${encodeURIComponent(refId)}`);
  expect(res.status).toBe(200);
  return res.body.items as { id: string; direction?: string }[];
}

describe("journeys against the strict double", () => {
  it("2. the orders page: the ticket's market, profiles and funds, the table with each filter and sort, a row's order and its cancel", async () => {
    await journey(async (read) => {
      const listed = (await read(as.trader, "/api/v2/markets")).body?.markets;
      const market = marketsOffered(listed).includes("BTCUSD") ? "BTCUSD" : marketsOffered(listed)[0]!;
      for (const m of [market, "ETHUSD"]) {
        await read(as.trader, `/api/v2/markets/${m}/ticker`);
        await read(as.trader, `/api/v2/markets/${m}/order-book`);
        await read(as.trader, `/api/v2/markets/${m}/recent-executions`);
      }
      await read(as.trader, "/api/v2/profiles");
      await read(as.trader, `/api/v2/profiles/${TRADING}/balances`);
      await read(as.trader, "/api/approvals");
      const first = await read(as.trader, "/api/orders?limit=25");
      if (first.body?.next_cursor) await read(as.trader, `/api/orders?limit=25&cursor=${first.body.next_cursor}`);
      for (const filter of [
        "side=BUY",
        "type=LIMIT",
        "market=ETHUSD",
        "status=OPEN",
        `profile_id=${TRADING}`,
        `profile_id=${TRADING}&market=ETHUSD&status=OPEN&side=BUY&type=LIMIT`,
        "market=ETHUSD&sort=price&dir=asc",
        "market=ETHUSD&sort=amount&dir=desc&side=BUY",
      ]) {
        await read(as.trader, `/api/orders?${filter}&limit=25`);
      }
      await read(as.trader, `/api/activity?kind=order&ref_ids=${encodeURIComponent(order.ref_id)}&limit=200`);
      await read(as.trader, `/api/v2/profiles/${order.profile_id}/orders/${order.id}`);
    });
    // The row's Cancel: the service only acknowledges it; the row follows the order to CANCELLED.
    const mark = double.refusals.length;
    const path = `/api/v2/profiles/${order.profile_id}/orders/${order.id}`;
    const cancelled = await as.trader.call("DELETE", path);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    d.app.clock.advance(CANCEL_SETTLE_MS);
    await expect
      .poll(async () => (await as.trader.call("GET", path)).body?.status, { timeout: 10_000, interval: 100 })
      .toBe("CANCELLED");
    expect(double.refusals.slice(mark)).toEqual([]);
  });

  it("3. the transfers page: the form's funds, the table with each filter, the other legs by group, a transfer", async () => {
    await journey(async (read) => {
      await read(as.ops, "/api/v2/profiles");
      await read(as.ops, `/api/v2/profiles/${TREASURY}/balances`);
      await read(as.ops, `/api/v2/profiles/${SETTLEMENT}/balances`);
      const now = new Date().toISOString();
      const range = `from=${new Date(`${dayOf(now)}T00:00:00Z`).toISOString()}&to=${nextDay(`${dayOf(now)}T00:00:00Z`)}`;
      const pages: Read[] = [];
      for (const filter of [
        "",
        `profile_ids=${TREASURY}`,
        "statuses=COMPLETED",
        "type=INTERNAL_TRANSFER_DEBIT",
        "asset=USD",
        range,
        `profile_ids=${TREASURY}&statuses=COMPLETED&type=INTERNAL_TRANSFER_DEBIT&asset=USD&${range}`,
        "asset=USD&sort=amount&dir=desc",
      ]) {
        pages.push(await read(as.ops, `/api/transfers?${filter}&limit=50`));
      }
      // The table asks for the other leg of each internal transfer it shows one leg of.
      const groups = [
        ...new Set(pages.flatMap((p) => (p.body?.items ?? []).map((t: any) => t.group_id)).filter(Boolean)),
      ];
      expect(groups.length).toBeGreaterThan(0);
      const q = groups.map((g) => `group_ids=${g}`).join("&");
      await read(as.ops, `/api/v2/transfer/transfers?${q}&limit=${groups.length * 2}`);
      await read(as.ops, `/api/v2/transfer/transfers/${transfer.id}`);
      await read(as.ops, `/api/activity?kind=transfer&ref_ids=${encodeURIComponent(transfer.ref_id)}&limit=200`);
    });
  });

  it("4. the balances page: every profile's balances and the tickers that value what they hold", async () => {
    await journey(async (read) => {
      const profiles: { id: string }[] = (await read(as.viewer, "/api/v2/profiles")).body?.items ?? [];
      expect(profiles.length).toBeGreaterThan(0);
      const assets = new Set<string>();
      for (const p of profiles) {
        const balances = await read(as.viewer, `/api/v2/profiles/${p.id}/balances`);
        for (const b of balances.body?.items ?? []) assets.add(b.asset);
      }
      // What the page asks for (components/balances/balances-view.tsx); a market the service does
      // not list (the spec's GOLDUSD) is answered 404 by the dashboard, unsent, and left unpriced.
      const listed = new Set(
        ((await read(as.viewer, "/api/v2/markets")).body?.markets ?? []).map((m: { market: string }) => m.market),
      );
      for (const market of [...new Set([...assets].flatMap(marketsToValue))].sort()) {
        await read(as.viewer, `/api/v2/markets/${market}/ticker`, listed.has(market) ? 200 : 404);
      }
    });
  });

  it("5. the activity, approvals, audit, policies and sessions pages", async () => {
    await journey(async (read) => {
      await read(as.viewer, "/api/activity?limit=25");
      await read(as.admin, "/api/activity?kind=order&limit=25");
      await read(as.admin, "/api/audit?limit=50");
      await read(as.admin, "/api/audit/verify");
      await read(as.approver, "/api/approvals");
      await read(as.approver, "/api/approvals?status=PENDING");
      await read(as.admin, "/api/policies");
      await read(as.admin, "/api/sessions");
    });
  });

  it("6. both CSV exports (and the activity and audit ones), filtered as the tables are", async () => {
    await journey(async (read) => {
      const today = `${new Date().toISOString().slice(0, 10)}T00:00:00Z`;
      for (const path of [
        "/api/orders/export.csv",
        `/api/orders/export.csv?profile_id=${TRADING}&market=ETHUSD&status=OPEN&side=BUY&type=LIMIT`,
        "/api/transfers/export.csv",
        `/api/transfers/export.csv?profile_ids=${TREASURY}&statuses=COMPLETED&type=INTERNAL_TRANSFER_DEBIT&asset=USD&from=${new Date(today).toISOString()}&to=${nextDay(today)}`,
        "/api/transfers/export.csv?statuses=COMPLETED&asset=USD",
        "/api/activity/export.csv",
        "/api/audit/export.csv",
      ]) {
        const csv = await read(as.admin, path);
        // A header line at least, and the export ran to its end (a stalled one never answers).
        expect(typeof csv.body === "string" && csv.body.includes("\n"), `${path}: ${csv.body}`).toBe(true);
      }
    });
  });

  it("7. the live stream: what the watcher reads for an open screen, round after round", async () => {
    const since = double.calls.length;
    const mark = double.refusals.length;
    const stream = await openStream(d.target, as.trader.cookie(), `?profiles=${TRADING}&markets=ETHUSD`);
    try {
      expect(stream.status).toBe(200);
      // Three rounds of each read the screen's interests need, answered.
      const seen = (operation: string, path?: string) =>
        double.waitFor(
          (c) => c.operation === operation && (!path || c.path.endsWith(path)) && c.status !== undefined,
          3,
          { since },
        );
      // In real time: the double holds the dashboard to the service's rate limits on its own
      // clock, so the watcher's pace is not hurried by moving the runtime's.
      await Promise.all([
        seen("List Orders"),
        seen("List Transfers"),
        seen("List Profile Balances", `/profiles/${TRADING}/balances`),
        seen("Get Ticker", "/markets/ETHUSD/ticker"),
      ]);
    } finally {
      stream.close();
    }
    expect(double.refusals.slice(mark)).toEqual([]);
    expect(double.calls.slice(since).filter((c) => c.status !== undefined && c.status >= 400)).toEqual([]);
  });

  it("8. an order whose answer is lost (the connection dropped after the service took it), retried with the same ref_id", async () => {
    const mark = double.refusals.length;
    const ref = newRef("lost-order");
    const body = smallOrder(ref);
    double.loseAnswer("Create Order", "drop", ref);
    const first = await as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body);
    const again = await as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body);
    expect(double.calls.filter((c) => c.refId === ref && c.lost === "drop")).toHaveLength(1);
    expect(double.refusals.slice(mark)).toEqual([]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, ref_id: ref });
    expect((await held("/orders", ref)).map((o) => o.id)).toEqual([first.body.id]);
  });

  it("9. a transfer whose answer never came (the dashboard gave up waiting), retried with the same ref_id", async () => {
    const mark = double.refusals.length;
    const ref = newRef("lost-transfer");
    const body = smallTransfer(ref);
    double.loseAnswer("Create Internal Transfer", "hold", ref);
    const first = await as.ops.call("POST", "/api/v2/transfer/internal", body);
    const again = await as.ops.call("POST", "/api/v2/transfer/internal", body);
    expect(double.calls.filter((c) => c.refId === ref && c.lost === "hold")).toHaveLength(1);
    expect(double.refusals.slice(mark)).toEqual([]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, ref_id: ref });
    const legs = await held("/transfer/transfers", ref);
    expect(legs.filter((t) => t.direction === "DEBIT").map((t) => t.id)).toEqual([first.body.id]);
  });

  it("10. a token the service revoked: one new token, the reads go on, nobody is signed out", async () => {
    const since = double.calls.length;
    double.revokeTokens();
    await journey(async (read) => {
      await read(as.trader, "/api/orders?limit=25");
      await read(as.ops, "/api/transfers?limit=50");
      await read(as.viewer, `/api/v2/profiles/${TREASURY}/balances`);
    });
    const after = double.calls.slice(since);
    expect(after.filter((c) => c.status === 401)).not.toEqual([]);
    expect(after.filter((c) => c.operation === "token" && c.status === 200).length).toBeGreaterThanOrEqual(1);
  });
});

describe("the whole run", () => {
  it("the double refused nothing the dashboard sent", () => {
    expect(double.refusals).toEqual([]);
  });

  it("the service holds exactly one record for each ref_id the dashboard created with", async () => {
    const creates = double.calls.filter((c) => c.forwarded && c.refId !== undefined);
    expect(creates.length).toBeGreaterThanOrEqual(2);
    for (const refId of new Set(creates.map((c) => c.refId!))) {
      const kind = creates.find((c) => c.refId === refId)!.operation;
      const records =
        kind === "Create Order"
          ? await held("/orders", refId)
          : (await held("/transfer/transfers", refId)).filter((t) => t.direction === "DEBIT");
      expect(records, `${kind} ${refId}`).toHaveLength(1);
    }
  });
});

/**
 * The double itself, on its own instance and caller budget: each rule it holds the dashboard to
 * refuses what breaks it, so that "nothing refused" above means something.
 */
describe("the strict double refuses what the reference does not document", () => {
  let bite: InProcessStrictDouble;
  let bearer = "";
  const askToken = (scope: string, at: InProcessStrictDouble = bite) =>
    at.fetch(`${at.url}${DOUBLE_TOKEN}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "dashboard",
        client_secret: "sandbox-secret",
        scope,
      }),
    });
  const token = async (scope: string) => {
    const res = await askToken(scope);
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (method: string, path: string, options: { body?: unknown; bearer?: string } = {}) => {
    const res = await bite.fetch(`${bite.url}${DOUBLE_API}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${options.bearer ?? bearer}`,
        ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const lastReason = () => bite.refusals.at(-1)?.reason;

  beforeAll(async () => {
    bite = inProcessStrictDouble({ penaltyMs: 60_000, rates: { token: 100 } });
    bite.setTarget(d.target.fetch!, d.url);
    bearer = await token(
      "exchange:read_order exchange:write_order transfer:read_transfer transfer:write_internal_transfer funding:read_profile",
    );
  });

  it.each([
    ["an undocumented query parameter", "/orders?side=BUY", "undocumented query parameter"],
    ["a value outside the enum", "/orders?status=open", "invalid query value"],
    ["a scalar given twice", "/orders?market=ETHUSD&market=BTCUSD", "invalid query value"],
    ["a limit above the maximum", "/transfer/transfers?limit=1001", "limit above maximum"],
    [
      "profile_ids with statuses",
      `/transfer/transfers?profile_ids=${TREASURY}&statuses=COMPLETED`,
      "filter combination",
    ],
    ["type with group_ids", "/transfer/transfers?type=INTERNAL_TRANSFER_DEBIT&group_ids=x", "filter combination"],
    [
      "order_by against the timestamp filtered on",
      "/transfer/transfers?updated_at.gte=2026-01-01T00:00:00Z&order_by=CREATED_AT",
      "filter combination",
    ],
    ["a time not in RFC 3339", "/orders?order_time.begin=yesterday", "invalid query value"],
    ["an undocumented endpoint", "/orders/export", "undocumented endpoint"],
    ["a market the service does not list", "/markets/GOLDUSD/ticker", "unlisted market"],
  ])("%s: %s", async (_, path, reason) => {
    const res = await call("GET", path);
    expect(res.status).toBe(reason === "undocumented endpoint" || reason === "unlisted market" ? 404 : 400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(lastReason()).toBe(reason);
  });

  it("takes the documented combinations: profile_ids with a created_at range, statuses with anything", async () => {
    const before = bite.refusals.length;
    for (const path of [
      `/transfer/transfers?profile_ids=${TREASURY}&created_at.gte=2026-01-01T00:00:00Z&limit=10`,
      "/transfer/transfers?statuses=COMPLETED&group_ids=x&created_at.lt=2100-01-01T00:00:00.000Z",
      `/orders?profile_id=${TRADING}&market=ETHUSD&status=OPEN&order_time.begin=2026-01-01T00:00:00Z&limit=1000`,
    ]) {
      expect((await call("GET", path)).status, path).toBe(200);
    }
    expect(bite.refusals.length).toBe(before);
  });

  it("refuses an unknown body field and a quantity the order type does not take", async () => {
    const withExtra = await call("POST", `/profiles/${TRADING}/orders`, {
      body: { ...smallOrder(newRef("bite")), note: "x" },
    });
    expect(withExtra.status).toBe(400);
    expect(lastReason()).toBe("unknown body field");
    const both = await call("POST", `/profiles/${TRADING}/orders`, {
      body: smallOrder(newRef("bite"), { quote_amount: "10" }),
    });
    expect(both.status).toBe(400);
    expect(lastReason()).toBe("invalid body");
    const transferExtra = await call("POST", "/transfer/internal", {
      body: { ...smallTransfer(newRef("bite")), memo: "x" },
    });
    expect(transferExtra.status).toBe(400);
    expect(lastReason()).toBe("unknown body field");
  });

  it("answers 401 without a challenge for a token it did not issue, 403 for one without the scope", async () => {
    const forged = await call("GET", "/orders", { bearer: "not-a-token" });
    expect(forged.status).toBe(401);
    expect(forged.headers.get("www-authenticate")).toBeNull();
    expect(lastReason()).toBe("bad token");
    const narrow = await token("funding:read_profile");
    expect((await call("GET", "/profiles", { bearer: narrow })).status).toBe(200);
    expect((await call("GET", "/orders", { bearer: narrow })).status).toBe(403);
    expect(lastReason()).toBe("missing scope");
    expect((await call("POST", "/transfer/internal", { bearer: narrow, body: smallTransfer() })).status).toBe(403);
  });

  it('answers List Orders as published: "0" for unused amounts, no cursor key on the last page', async () => {
    const ref = newRef("bite");
    expect((await call("POST", `/profiles/${TRADING}/orders`, { body: smallOrder(ref) })).status).toBe(200);
    const listed = await call("GET", `/orders?ref_ids=${ref}&limit=10`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0].quote_amount).toBe("0");
    expect("next_page_cursor" in listed.body).toBe(false);
  });

  it("answers a reused ref_id with 409 and the record in meta.existing", async () => {
    const body = smallTransfer(newRef("bite"));
    const scoped = await token("transfer:write_internal_transfer");
    const made = await call("POST", "/transfer/internal", { bearer: scoped, body });
    expect(made.status).toBe(200);
    const again = await call("POST", "/transfer/internal", { bearer: scoped, body });
    expect(again.status).toBe(409);
    expect(again.body.meta.existing).toMatchObject({ id: made.body.id, ref_id: body.ref_id });
  });

  it("loses a create's answer when told: the order is made, the connection dropped, the retry meets it", async () => {
    const body = smallOrder(newRef("bite"));
    bite.loseAnswer("Create Order", "drop", body.ref_id);
    await expect(call("POST", `/profiles/${TRADING}/orders`, { body })).rejects.toThrow();
    const again = await call("POST", `/profiles/${TRADING}/orders`, { body });
    expect(again.status).toBe(409);
    expect(again.body.meta.existing).toMatchObject({ ref_id: body.ref_id });
    const listed = await call("GET", `/orders?ref_ids=${body.ref_id}`);
    expect(listed.body.items.map((o: { id: string }) => o.id)).toEqual([again.body.meta.existing.id]);
  });

  it("refuses a token for a scope the credentials are not granted, as OAuth says: invalid_scope", async () => {
    const readOnly = inProcessStrictDouble({
      granted: ["funding:read_profile", "exchange:read_order"],
      rates: { token: 100 },
    });
    readOnly.setTarget(d.target.fetch!, d.url);
    const refused = await askToken("exchange:read_order exchange:write_order", readOnly);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_scope" });
    expect(readOnly.refusals.map((r) => r.reason)).toEqual(["invalid scope"]);
    expect((await askToken("exchange:read_order", readOnly)).status).toBe(200);
  });

  it("answers a revoked token 401 without a challenge; sending it again after a new one was issued is a refusal", async () => {
    const old = await token("exchange:read_order");
    bite.revokeTokens();
    const before = bite.refusals.length;
    const first = await call("GET", "/orders", { bearer: old });
    expect(first.status).toBe(401);
    expect(first.headers.get("www-authenticate")).toBeNull();
    // News to the client: not its fault.
    expect(bite.refusals.length).toBe(before);
    const fresh = await token("exchange:read_order");
    expect((await call("GET", "/orders", { bearer: fresh })).status).toBe(200);
    expect((await call("GET", "/orders", { bearer: old })).status).toBe(401);
    expect(lastReason()).toBe("bad token");
    expect(bite.refusals.length).toBe(before + 1);
  });

  it("answers 429 without Retry-After past the order book's 10/s, then refuses everything for the penalty", async () => {
    const statuses: number[] = [];
    while (!statuses.includes(429) && statuses.length < 50) {
      const res = await call("GET", "/markets/ETHUSD/order-book");
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("retry-after")).toBeNull();
    }
    expect(statuses.indexOf(429)).toBeGreaterThanOrEqual(10);
    expect(lastReason()).toBe("rate limit");
    const markets = await call("GET", "/markets");
    expect(markets.status).toBe(429);
    expect(lastReason()).toBe("locked out");
  });
});
