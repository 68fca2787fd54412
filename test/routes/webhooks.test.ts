import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import {
  DISABLE_AFTER_MS,
  EVENTS_SWEEP_MS,
  eventsIdle,
  FANNED_KEPT_MS,
  RETRY_DELAYS_MS,
} from "@/lib/server/events/dispatcher";
import { FOLLOW_EVERY_MS } from "@/lib/server/events/follower";
import {
  eventually,
  expectProblem,
  inProcessDashboard,
  newRef,
  signInAll,
  smallOrder,
  TRADING,
  type Database,
  type InProcessDashboard,
} from "../support/dashboard";
import { webhookReceiver, type Receiver } from "../support/webhook-receiver";

/**
 * Webhooks (issue 30) through the route handlers in process, with a local receiver that verifies
 * each delivery with the Standard Webhooks library: registered by an admin with a secret shown
 * once, every address that could reach inside refused, each event delivered at least once with
 * one webhook-id over all its attempts, the backoff, the retry, the turning off after three days
 * of failures, and the record follower's final events. The clock is moved, never waited for.
 */

const HOOKS = "/api/webhooks";

describe.each<Database>(["sqlite", "postgres"])("webhooks on %s", (database) => {
  let d: InProcessDashboard;
  let receiver: Receiver;
  /** The clients signed in now: a test that moves the clock by hours signs in again (`freshSessions`). */
  let as: InProcessDashboard["as"];
  beforeAll(async () => {
    receiver = await webhookReceiver();
    d = await inProcessDashboard({ database, env: { LOG_LEVEL: "error", WEBHOOK_ALLOW_HOSTS: "127.0.0.1" } });
    as = d.as;
  });
  const freshSessions = async () => {
    as = await signInAll(d.target);
  };
  afterAll(async () => {
    await d?.dispose();
    await receiver?.close();
  });
  beforeEach(async () => {
    receiver.answer({ status: 200 });
    receiver.received.length = 0;
    // Each test's webhooks only: the earlier ones are removed.
    const listed = await as.admin.call("GET", HOOKS);
    for (const hook of listed.body.items) await as.admin.call("DELETE", `${HOOKS}/${hook.id}`);
  });

  /** Moves the clock by `ms` and lets the dispatcher's pass run to its end. */
  async function move(ms = EVENTS_SWEEP_MS) {
    d.app.clock.advance(ms);
    await eventsIdle(d.app.runtime);
  }

  async function register(events: string[] = ["*"], url = receiver.url) {
    const res = await as.admin.call("POST", HOOKS, { url, events, description: "ledger" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { webhook: { id: string }; secret: string };
  }

  const deliveries = async (id: string) => {
    const res = await as.admin.call("GET", `${HOOKS}/${id}/deliveries`);
    expect(res.status).toBe(200);
    return res.body.items as Record<string, any>[];
  };

  /** The attempts made of the webhook's latest delivery, read from the database (no session needed). */
  const attemptsOf = async (id: string) => {
    const row = await d.app.runtime.db
      .selectFrom("webhook_deliveries")
      .select("attempts")
      .where("webhook_id", "=", id)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    return row ? Number(row.attempts) : 0;
  };

  /** The deliveries the receiver got of `type`, each verified with the webhook's secret. */
  const verified = (secret: string, type: string) =>
    receiver.received
      .map((r) => ({ r, body: new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as any }))
      .filter(({ body }) => body.type === type);

  async function placeOrder(extra: Record<string, unknown> = {}) {
    const res = await as.trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, {
      ...smallOrder(newRef("wh")),
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: string; status: string };
  }

  it("registers for an admin only, shows the secret once, and lists without it", async () => {
    const { webhook, secret } = await register(["order.created", "transfer.failed"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook).toMatchObject({ url: receiver.url, events: ["order.created", "transfer.failed"], enabled: true });
    expect(webhook).toHaveProperty("created_at");
    const listed = await as.admin.call("GET", HOOKS);
    expect(listed.body.items.map((w: any) => w.id)).toEqual([webhook.id]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    for (const role of ["viewer", "trader", "ops", "approver"] as const) {
      expect((await as[role].call("POST", HOOKS, { url: receiver.url, events: ["*"] })).status).toBe(403);
      expect((await as[role].call("GET", HOOKS)).status).toBe(403);
      expect((await as[role].call("DELETE", `${HOOKS}/${webhook.id}`)).status).toBe(403);
    }
  });

  it.each([
    [{ events: ["*"] }, "url", "URL is required"],
    [{ url: "ledger", events: ["*"] }, "url", "absolute URL"],
    [{ url: "ftp://example.com/x", events: ["*"] }, "url", "https://"],
    [{ url: "http://example.com/x", events: ["*"] }, "url", "must use https://"],
    [{ url: "https://user:pw@example.com/x", events: ["*"] }, "url", "user name or password"],
    [{ url: "https://example.com/x" }, "events", "Events is required"],
    [{ url: "https://example.com/x", events: [] }, "events", "at least one"],
    [{ url: "https://example.com/x", events: ["order.exploded"] }, "events.0", "one of approval.requested"],
    [{ url: "https://example.com/x", events: ["*", "order.filled"] }, "events", "stands alone"],
    [{ url: "https://example.com/x", events: ["order.filled", "order.filled"] }, "events", "twice"],
    [{ url: "https://example.com/x", events: ["*"], description: "x".repeat(201) }, "description", "at most 200"],
  ])("refuses %j: the field %s", async (body, field, words) => {
    const res = await as.admin.call("POST", HOOKS, body);
    expectProblem(res, 400);
    const error = res.body.meta.errors.find((e: any) => e.field === field);
    expect(error?.message, JSON.stringify(res.body)).toContain(words);
    expect((await as.admin.call("GET", HOOKS)).body.items).toEqual([]);
  });

  it.each([
    ["https://169.254.169.254/latest/meta-data/", "169.254.169.254 is a private"],
    ["https://10.0.0.1/hooks", "10.0.0.1 is a private"],
    ["https://localhost/hooks", "resolves to"],
    ["https://[::1]/hooks", "::1 is a private"],
    ["https://[::ffff:169.254.169.254]/hooks", "is a private"],
    ["https://192.168.1.20/hooks", "is a private"],
  ])("refuses a webhook to %s: no request forgery", async (url, words) => {
    const res = await as.admin.call("POST", HOOKS, { url, events: ["*"] });
    expectProblem(res, 400);
    expect(res.body.meta.errors[0].field).toBe("url");
    expect(res.body.meta.errors[0].message).toContain(words);
  });

  it("delivers an order's creation, signed as Standard Webhooks says, with the service's order", async () => {
    const { webhook, secret } = await register(["order.created"]);
    const order = await placeOrder();
    await move();
    const [got] = await eventually(async () => {
      const found = verified(secret, "order.created");
      return found.length > 0 ? found : (await move(), undefined);
    });
    expect(got!.body.data.order.id).toBe(order.id);
    expect(got!.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(got!.r.headers["webhook-id"]).toMatch(/^msg_/);
    expect(got!.r.headers["webhook-signature"]).toMatch(/^v1,/);
    // A body changed on the way fails verification.
    expect(() => new Webhook(secret).verify(got!.r.body.replace(order.id, "x"), got!.r.headers as any)).toThrow();
    const [delivery] = await deliveries(webhook.id);
    expect(delivery).toMatchObject({
      id: got!.r.headers["webhook-id"],
      event_type: "order.created",
      status: "DELIVERED",
      attempts: 1,
      last_status_code: 200,
    });
  });

  it("answers 500 then 200: one delivery, the same webhook-id, two attempts, the second after 5 s", async () => {
    const { webhook, secret } = await register(["order.created"]);
    receiver.answer({ status: 500, body: "down" }, { status: 200 });
    await placeOrder();
    await move();
    const [first] = await eventually(async () => {
      const items = await deliveries(webhook.id);
      return items[0]?.attempts === 1 ? items : (await move(), undefined);
    });
    expect(first).toMatchObject({ status: "PENDING", last_status_code: 500 });
    const wait = Date.parse(first!.next_attempt_at) - d.app.clock.now();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(RETRY_DELAYS_MS[0]!);
    await move(RETRY_DELAYS_MS[0]);
    const [done] = await eventually(async () => {
      const items = await deliveries(webhook.id);
      return items[0]?.status === "DELIVERED" ? items : (await move(), undefined);
    });
    expect(done).toMatchObject({ attempts: 2, last_status_code: 200 });
    const got = verified(secret, "order.created");
    expect(got).toHaveLength(2);
    expect(new Set(got.map((g) => g.r.headers["webhook-id"]))).toEqual(new Set([done!.id]));
  });

  it("never follows a redirect, and keeps at most 1 kB of an answer", async () => {
    const elsewhere = await webhookReceiver();
    try {
      const { webhook } = await register(["order.created"]);
      receiver.answer({ status: 302, headers: { location: elsewhere.url } });
      await placeOrder();
      const [delivery] = await eventually(async () => {
        const items = await deliveries(webhook.id);
        return items[0]?.attempts === 1 ? items : (await move(), undefined);
      });
      expect(delivery).toMatchObject({ status: "PENDING", last_status_code: 302 });
      expect(elsewhere.received).toHaveLength(0);

      receiver.answer({ status: 200, body: "y".repeat(5000) });
      await move(RETRY_DELAYS_MS[0]);
      await eventually(async () =>
        (await deliveries(webhook.id))[0]?.status === "DELIVERED" ? true : (await move(), undefined),
      );
      const row = await d.app.runtime.db
        .selectFrom("webhook_deliveries")
        .select("response_body")
        .where("id", "=", delivery!.id)
        .executeTakeFirstOrThrow();
      expect(row.response_body).toBe("y".repeat(1024));
    } finally {
      await elsewhere.close();
    }
  });

  it("retries on the backoff, then FAILED; a retry by hand delivers with the same webhook-id", async () => {
    const { webhook, secret } = await register(["order.created"]);
    receiver.answer({ status: 503 });
    await placeOrder();
    await move();
    for (const [i, wait] of RETRY_DELAYS_MS.entries()) {
      await eventually(async () => ((await attemptsOf(webhook.id)) === i + 1 ? true : (await move(0), undefined)));
      await move(wait);
    }
    await freshSessions();
    const [failed] = await eventually(async () => {
      const items = await deliveries(webhook.id);
      return items[0]?.status === "FAILED" ? items : (await move(), undefined);
    });
    expect(failed).toMatchObject({
      attempts: RETRY_DELAYS_MS.length + 1,
      next_attempt_at: null,
      last_status_code: 503,
    });

    receiver.answer({ status: 204 });
    const other = await as.approver.call("POST", `${HOOKS}/${webhook.id}/deliveries/${failed!.id}/retry`);
    expect(other.status).toBe(403);
    const missing = await as.admin.call("POST", `${HOOKS}/${webhook.id}/deliveries/msg_nope/retry`);
    expectProblem(missing, 404);
    const retried = await as.admin.call("POST", `${HOOKS}/${webhook.id}/deliveries/${failed!.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body.delivery).toMatchObject({ id: failed!.id, status: "PENDING" });
    const [done] = await eventually(async () => {
      const items = await deliveries(webhook.id);
      return items[0]?.status === "DELIVERED" ? items : (await move(), undefined);
    });
    expect(done).toMatchObject({ id: failed!.id, attempts: RETRY_DELAYS_MS.length + 2, last_status_code: 204 });
    // Delivered: a retry now (clicked as the last attempt landed) sends nothing again.
    expectProblem(await as.admin.call("POST", `${HOOKS}/${webhook.id}/deliveries/${failed!.id}/retry`), 409);
    const ids = new Set(verified(secret, "order.created").map((g) => g.r.headers["webhook-id"]));
    expect(ids).toEqual(new Set([failed!.id]));
  });

  it("turns a webhook off after three days of failures, audited", async () => {
    const { webhook } = await register(["order.created"]);
    receiver.answer({ status: 500 });
    await placeOrder();
    await eventually(async () =>
      (await deliveries(webhook.id))[0]?.attempts === 1 ? true : (await move(), undefined),
    );
    d.app.clock.advance(DISABLE_AFTER_MS);
    await freshSessions();
    await placeOrder();
    await eventually(async () => {
      const listed = await as.admin.call("GET", HOOKS);
      const hook = listed.body.items.find((w: any) => w.id === webhook.id);
      return hook?.enabled === false ? hook : (await move(), undefined);
    });
    const audit = await as.admin.call("GET", `/api/audit?event=webhook.disabled`);
    expect(audit.body.items.map((e: any) => e.subject)).toContain(webhook.id);
    const sent = receiver.received.length;
    await placeOrder();
    await move();
    await move(RETRY_DELAYS_MS[0]);
    expect(receiver.received).toHaveLength(sent);
    expectProblem(await as.admin.call("POST", `${HOOKS}/${webhook.id}/test`), 409);
  });

  it("sends a test event to one webhook; a removed webhook is gone with its deliveries", async () => {
    const { webhook, secret } = await register(["policy.changed"]);
    const sent = await as.admin.call("POST", `${HOOKS}/${webhook.id}/test`);
    expect(sent.status).toBe(202);
    const [got] = await eventually(async () => {
      const found = verified(secret, "webhook.test");
      return found.length > 0 ? found : (await move(), undefined);
    });
    expect(got!.r.headers["webhook-id"]).toBe(sent.body.delivery.id);
    expect((await as.admin.call("DELETE", `${HOOKS}/${webhook.id}`)).status).toBe(200);
    expectProblem(await as.admin.call("GET", `${HOOKS}/${webhook.id}/deliveries`), 404);
    expectProblem(await as.admin.call("DELETE", `${HOOKS}/${webhook.id}`), 404);
  });

  it("keeps an event fanned out for a day, then only its deliveries", async () => {
    const { webhook } = await register(["order.created"]);
    await placeOrder();
    const [delivery] = await eventually(async () => {
      const items = await deliveries(webhook.id);
      return items[0]?.status === "DELIVERED" ? items : (await move(), undefined);
    });
    const eventOf = () =>
      d.app.runtime.db
        .selectFrom("webhook_deliveries")
        .innerJoin("outbox_events", "outbox_events.id", "webhook_deliveries.event_id")
        .select("outbox_events.id")
        .where("webhook_deliveries.id", "=", delivery!.id)
        .executeTakeFirst();
    expect(await eventOf()).toBeDefined();
    await move(FANNED_KEPT_MS / 2);
    expect(await eventOf()).toBeDefined();
    await move(FANNED_KEPT_MS / 2 + 3_600_000);
    await eventually(async () => ((await eventOf()) === undefined ? true : (await move(0), undefined)));
    await freshSessions();
    expect((await deliveries(webhook.id))[0]).toMatchObject({ id: delivery!.id, status: "DELIVERED" });
  });

  it("follows an order it created to its end: order.cancelled once, whoever reads it", async () => {
    const { secret } = await register(["order.cancelled", "order.filled"]);
    const order = await placeOrder();
    expect(order.status).not.toBe("CANCELLED");
    const cancel = await as.trader.call("DELETE", `/api/v2/profiles/${TRADING}/orders/${order.id}`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBeLessThan(300);
    const [got] = await eventually(async () => {
      const found = verified(secret, "order.cancelled");
      return found.length > 0 ? found : (await move(FOLLOW_EVERY_MS), undefined);
    });
    expect(got!.body.data.order).toMatchObject({ id: order.id, status: "CANCELLED" });
    for (let i = 0; i < 3; i++) await move(FOLLOW_EVERY_MS);
    expect(verified(secret, "order.cancelled")).toHaveLength(1);
  });
});
