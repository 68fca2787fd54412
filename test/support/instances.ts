import { expect } from "vitest";
import type { Role } from "@/lib/shared/roles";
import { addDecimal, compareDecimal } from "@/lib/spec";
import { startApp, type AppServer, type Target } from "./app-server";
import { eventually, expectProblem, houseOrder, signInAll, type Client, type JournalItem } from "./dashboard";
import { startFaultProxy, type FaultProxy } from "./fault-proxy";
import { RESERVE, SETTLEMENT, smallOrder, smallTransfer, TRADING, TREASURY, newRef } from "./requests";
import { sandboxClient, startSandboxServer, testConfig, type SandboxServer } from "./sandbox-server";

/**
 * The tests of the process itself (kill -9, restart, SIGTERM, two instances): dashboards in
 * processes of their own, talking to one "service" that outlives them, as the real one does:
 * the sandbox served in this test process, behind a fault proxy that sees every call.
 */

export interface Service {
  sandbox: SandboxServer;
  proxy: FaultProxy;
  /** The dashboard's settings for this service. */
  env(): Record<string, string>;
  /** Straight to the service with the dashboard's client credentials. */
  call: ReturnType<typeof sandboxClient>["call"];
  /** How many records the service holds for this create: orders, or transfers counted by their DEBIT leg. */
  held(create: Pick<Create, "kind" | "ref">): Promise<number>;
  close(): Promise<void>;
}

/** `clientSecret`: the dashboard's credentials at the service (a test may look for it in logs). */
export async function startService(clientSecret = "sandbox-secret"): Promise<Service> {
  const sandbox = await startSandboxServer(testConfig({ clientSecret, tokenRatePerSecond: 50 }));
  const proxy = await startFaultProxy();
  proxy.setTarget(Number(new URL(sandbox.url).port));
  const client = sandboxClient(sandbox.url, fetch, clientSecret);
  return {
    sandbox,
    proxy,
    // The instance's own embedded sandbox is off: the service is this one.
    env: () => ({ ...proxy.env(clientSecret), SANDBOX: "off" }),
    call: client.call,
    async held(create) {
      if (create.kind === "order") {
        const res = await client.call("GET", `/orders?ref_ids=${encodeURIComponent(create.ref)}`);
        return res.body.items.length;
      }
      const res = await client.call("GET", `/transfer/transfers?ref_ids=${encodeURIComponent(create.ref)}`);
      return res.body.items.filter((t: { direction: string }) => t.direction === "DEBIT").length;
    },
    async close() {
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** A dashboard process of its own, with a signed-in client per role that follows it across restarts. */
export interface Instance {
  app: AppServer;
  readonly url: string;
  as: Record<Role, Client>;
  /** Journal entries with this ref_id, as an admin reads them. */
  journal(refId: string): Promise<JournalItem[]>;
  /** Stops it with `signal` (SIGKILL by default) and starts it again on the same data. */
  restart(signal?: NodeJS.Signals): Promise<void>;
  dispose(): Promise<void>;
}

export async function startInstance(env: Record<string, string>): Promise<Instance> {
  // Up once it answers its liveness probe: its embedded sandbox (the default's probe) is off.
  const up = { upPath: "/api/health" };
  let app = await startApp(env, undefined, up);
  const target: Target = { url: app.url };
  const as = await signInAll(target);
  const instance: Instance = {
    get app() {
      return app;
    },
    get url() {
      return app.url;
    },
    as,
    async journal(refId) {
      const res = await as.admin.call("GET", `/api/activity?ref_ids=${encodeURIComponent(refId)}`);
      if (res.status !== 200) throw new Error(`GET /api/activity answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.items as JournalItem[];
    },
    async restart(signal = "SIGKILL") {
      await app.stop(signal);
      app = await startApp(env, app.dataDir, up);
      // The clients follow it to its new port with their cookies: sessions outlive the process.
      target.url = app.url;
    },
    dispose: () => app.dispose(),
  };
  return instance;
}

/** The faults' match for a create of an order on `profile`. */
export const ordersOf = (profile: string) => ({ method: "POST", path: `/sandbox/v2/profiles/${profile}/orders` });

/**
 * Two creates the service holds, of profiles the bursts leave alone: one it received and never
 * answers (`forwarded`), one it never received (`held`); both pending in the journal once this
 * resolves. What a kill leaves behind for the journal's reconciliation.
 */
export async function holdTwoCreates(service: Service, instance: Instance) {
  const forwarded = newRef("kill");
  const held = newRef("kill");
  service.proxy.fail(ordersOf(SETTLEMENT), { kind: "forward-then-hold" }, 10);
  service.proxy.fail(ordersOf(RESERVE), { kind: "hold" }, 10);
  const since = service.proxy.requests.length;
  const inFlight = [
    instance.as.trader.call("POST", `/api/v2/profiles/${SETTLEMENT}/orders`, smallOrder(forwarded)),
    instance.as.trader.call("POST", `/api/v2/profiles/${RESERVE}/orders`, smallOrder(held)),
  ].map((p) =>
    p.then(
      (r) => r.status,
      () => "killed" as const,
    ),
  );
  await service.proxy.waitFor(ordersOf(SETTLEMENT), 1, { forwarded: true, since, timeoutMs: 30_000 });
  await service.proxy.waitFor(ordersOf(RESERVE), 1, { since, timeoutMs: 30_000 });
  return { forwarded, held, inFlight };
}

/**
 * After a restart: the create the service received is reconciled as succeeded with its record,
 * the one it never received as failed (Not Sent), one entry each; and the restarted instance's
 * client still maps the service's failures to problems and still retries a create safely.
 */
export async function expectReconciled(
  service: Service,
  instance: Instance,
  { forwarded, held }: { forwarded: string; held: string },
) {
  const settled = (ref: string) =>
    eventually(
      async () => (await instance.journal(ref)).find((e) => e.status !== "pending"),
      30_000,
      `${ref} reconciled`,
    );
  const orders = async (ref: string) =>
    (await service.call("GET", `/orders?ref_ids=${encodeURIComponent(ref)}`)).body.items as { id: string }[];
  const received = await settled(forwarded);
  const [order] = await orders(forwarded);
  expect(order, "the forwarded create is at the service").toBeDefined();
  expect(received).toMatchObject({ status: "succeeded", http_status: 200, result_id: order!.id });
  expect(received.record).toMatchObject({ id: order!.id, ref_id: forwarded });
  expect(await instance.journal(forwarded)).toHaveLength(1);
  expect(await settled(held)).toMatchObject({ status: "failed", problem: { title: "Not Sent" } });
  expect(await orders(held)).toHaveLength(0);

  service.proxy.fail({ method: "GET", path: "/sandbox/v2/profiles" }, { kind: "drop-before" });
  expect(expectProblem(await instance.as.viewer.call("GET", "/api/v2/profiles"), 502).title).toBe(
    "Service Unreachable",
  );
  service.proxy.fail(ordersOf(TRADING), { kind: "drop-after" });
  const ref = newRef("after-restart");
  expect((await instance.as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref))).status).toBe(
    200,
  );
  expect(await orders(ref)).toHaveLength(1);
}

export interface Create {
  ref: string;
  kind: "order" | "transfer";
  send: () => Promise<{ status: number; body?: unknown }>;
}

/**
 * How a create of a SIGTERM burst ended: its status; "refused" when a stopping instance turned
 * it away at the door (it arrived after the signal, so nothing of it started); "no answer".
 * Which creates arrive before the signal is the machine's to decide, not their order in the burst.
 */
export type Outcome = number | "refused" | "no answer";

export const outcomeOf = (c: Create): Promise<Outcome> =>
  c.send().then(
    (r) => (r.status === 503 && isShuttingDown(r.body) ? "refused" : r.status),
    () => "no answer" as const,
  );

const isShuttingDown = (body: unknown) =>
  (body as { meta?: { reason?: string } } | undefined)?.meta?.reason === "shutting_down";

/** `count` creates, half orders and half transfers, each its own amount (none is asked about as a repeat). */
export function burst(instance: () => Pick<Instance, "as">, count: number, prefix: string): Create[] {
  return Array.from({ length: count }, (_, i) => {
    const ref = newRef(prefix);
    const cents = String(100 + i);
    if (i % 2) {
      const body = smallOrder(ref, { base_amount: `0.${cents.padStart(4, "0")}` });
      return {
        ref,
        kind: "order",
        send: () => instance().as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body),
      };
    }
    const body = smallTransfer(ref, { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, amount: `1.${cents}` });
    return { ref, kind: "transfer", send: () => instance().as.ops.call("POST", "/api/v2/transfer/internal", body) };
  });
}

/** `check` for every create, twenty at a time. */
export async function forEachCreate(all: Create[], check: (c: Create, i: number) => Promise<void>) {
  for (let i = 0; i < all.length; i += 20) {
    await Promise.all(all.slice(i, i + 20).map((c, j) => check(c, i + j)));
  }
}

/** Resolves with the exit code (null when killed by a signal) and the time it took from now. */
export function exitOf(app: AppServer): Promise<{ code: number | null; ms: number }> {
  const sent = performance.now();
  return new Promise((resolve) => {
    const done = () => resolve({ code: app.process.exitCode, ms: performance.now() - sent });
    if (app.process.exitCode !== null || app.process.signalCode !== null) done();
    else app.process.once("exit", done);
  });
}

/** The transfer of a batch's row, at the service, as `held` counts it. */
export const rowCreate = (ref: string): Create => ({
  ref,
  kind: "transfer",
  send: () => Promise.reject(new Error("a row is sent by the batch")),
});

/**
 * A batch of `rows` small transfers (Treasury to Settlement, under any approval rule) asked of
 * `instance` by ops: sending once answered 201. Its rows' ref_ids are `<ref>-<row>`.
 */
export async function startBatch(instance: Pick<Instance, "as">, rows: number, prefix: string) {
  const ref = newRef(prefix);
  const transfers = Array.from({ length: rows }, (_, i) => ({
    from_profile_id: TREASURY,
    to_profile_id: SETTLEMENT,
    asset: "USD",
    amount: `1.${String(i + 1).padStart(2, "0")}`,
    metadata: { note: ref.slice(-36) },
  }));
  const res = await instance.as.ops.call("POST", "/api/batches", { ref_id: ref, transfers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.batch.id as string, ref, rows };
}

/** The service's calls to create a transfer since `since` (an index into the proxy's requests). */
export const transfersSentSince = (service: Service, since: number) =>
  service.proxy.requests.slice(since).filter((r) => r.method === "POST" && r.path === "/sandbox/v2/transfer/internal")
    .length;

/**
 * Waits (as `reader` reads it) for the batch to complete, then checks every row: SENT, and its
 * transfer at the service exactly once; answers the batch.
 */
export async function expectBatchSentOnce(
  service: Service,
  reader: () => Pick<Instance, "as">,
  batch: { id: string; ref: string; rows: number },
) {
  const done = await eventually(
    async () => {
      const res = await reader()
        .as.ops.call("GET", `/api/batches/${batch.id}`)
        .catch(() => undefined);
      return res?.status === 200 && res.body.batch.status !== "SENDING" ? res.body.batch : undefined;
    },
    120_000,
    "the batch to finish",
  );
  expect(done.status).toBe("COMPLETED");
  expect(done.counts).toEqual({ waiting: 0, sent: batch.rows, failed: 0, skipped: 0 });
  for (let row = 1; row <= batch.rows; row++) {
    expect(await service.held(rowCreate(`${batch.ref}-${row}`)), `row ${row} at the service once`).toBe(1);
  }
  return done;
}

/**
 * A TWAP parent order of `instance`'s trader over 60 s in 12 slices (5 s apart, the closest the
 * rules allow), with the house's asks and bids at the service so its children fill: a process
 * test stops the instance while it is worked.
 */
export async function startTwap(service: Service, instance: Pick<Instance, "as">, prefix: string) {
  houseOrder(service.sandbox.runtime, "SELL", "60010", "5");
  houseOrder(service.sandbox.runtime, "BUY", "60000", "5");
  const ref = newRef(prefix);
  const res = await instance.as.trader.call("POST", "/api/parent-orders", {
    ref_id: ref,
    profile_id: TRADING,
    market: "BTCUSD",
    side: "BUY",
    base_amount: "0.24",
    strategy: "TWAP",
    duration_seconds: 60,
    slices: 12,
    limit_price: "61000",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.parent_order.id as string, ref, slices: 12, base: "0.24", cap: "61000" };
}

/** The parent as `reader` reads it, once `sent` of its children went and some are still to go. */
export const twapMidWay = (reader: () => Pick<Instance, "as">, id: string, sent: number) =>
  eventually(
    async () => {
      const res = await reader()
        .as.trader.call("GET", `/api/parent-orders/${id}`)
        .catch(() => undefined);
      const p = res?.status === 200 ? res.body.parent_order : undefined;
      const went = p?.children.filter((c: { sent_at: string | null }) => c.sent_at).length ?? 0;
      return went >= sent ? p : undefined;
    },
    60_000,
    `${sent} children of the parent sent`,
  );

/**
 * Cancels the parent once `sent` of its children went (what is left is skipped: the test has seen
 * it worked across the stop), waits for every child sent to settle, then checks it was worked
 * once: every child at the service exactly once when it was sent and never otherwise (none twice
 * after a restart), what the children filled adding up exactly to the parent's fill, within the
 * whole, never worse than the cap. Answers the parent.
 */
export async function expectTwapWorkedOnce(
  service: Service,
  reader: () => Pick<Instance, "as">,
  twap: { id: string; ref: string; slices: number; base: string; cap: string },
  sent: number,
) {
  await twapMidWay(reader, twap.id, sent);
  const cancelled = await reader().as.trader.call("POST", `/api/parent-orders/${twap.id}/cancel`);
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  const inFlight = ["SENDING", "PENDING_SUBMISSION", "SUBMITTED", "OPEN"];
  const done = await eventually(
    async () => {
      const res = await reader()
        .as.trader.call("GET", `/api/parent-orders/${twap.id}`)
        .catch(() => undefined);
      const p = res?.status === 200 ? res.body.parent_order : undefined;
      return p && !p.children.some((c: { status: string }) => inFlight.includes(c.status)) ? p : undefined;
    },
    60_000,
    "the parent's children to settle",
  );
  expect(done.status).toBe("CANCELLED");
  let filled = "0";
  for (const child of done.children as TwapChild[]) {
    const held = await service.held({ kind: "order", ref: child.ref_id });
    expect(held, `child ${child.n} at the service`).toBe(child.sent_at ? 1 : 0);
    expect(["FILLED", "CANCELLED", "MERGED", "SKIPPED"], `child ${child.n}`).toContain(child.status);
    filled = addDecimal(filled, child.amount_filled);
    if (child.average_price) expect(compareDecimal(child.average_price, twap.cap)).toBeLessThanOrEqual(0);
  }
  expect(filled).toBe(done.filled_base);
  expect(compareDecimal(done.filled_base, twap.base)).toBeLessThanOrEqual(0);
  return done;
}

interface TwapChild {
  n: number;
  ref_id: string;
  sent_at: string | null;
  status: string;
  amount_filled: string;
  average_price: string;
}
