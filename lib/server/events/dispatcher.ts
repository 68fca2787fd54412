import "server-only";
import { Webhook } from "standardwebhooks";
import { subscribes, type EventBody } from "@/lib/shared/webhooks";
import { recordEvent } from "../db/outbox";
import {
  dueDeliveries,
  enabledWebhooks,
  insertDeliveries,
  insertEmails,
  markFanned,
  nextDue,
  pruneFannedEvents,
  unfannedEvents,
  updateDelivery,
  updateWebhook,
  webhookById,
  type DeliveryRow,
  type OutboxRow,
  type WebhookRow,
} from "../db/webhooks";
import { leaderPasses, type LeaderPasses } from "../ops/leader-passes";
import { log } from "../ops/log";
import type { Runtime } from "../runtime";
import { AddressRefused, allowedHosts, resolveWebhookAddress } from "./address-guard";
import { attemptDelivery, type AttemptResult } from "./deliver";
import { followRecords } from "./follower";
import { emailsOfEvent, prepareEmails, sendDueEmails } from "./mail";
import { openSecret } from "./secrets";
import { newDelivery } from "./deliveries";

/**
 * The leader's dispatcher of events out (issue 30), started with the runtime's background work.
 * One instance dispatches: the leader (lib/server/live/leader.ts), as it sends batches and works
 * parent orders; whoever leads next goes on from the database. A pass:
 * 1. fans each new outbox event out, in one transaction with marking it fanned: one delivery per
 *    subscribed, enabled webhook, one email per person to tell (mail.ts);
 * 2. follows created orders and transfers to their final status while a webhook wants that
 *    (follower.ts);
 * 3. makes every attempt that is due: a 2xx delivers; anything else, or no answer, is tried again
 *    with the same webhook-id after RETRY_DELAYS_MS, then FAILED; a webhook failing for
 *    DISABLE_AFTER_MS is turned off, audited, and its admins emailed;
 * 4. sends the emails due (mail.ts).
 * At least once: an attempt cut short by a crash or a failover is made again.
 */

/** How often the dispatcher looks for new events (each action's transaction writes them; nobody has to kick). */
export const EVENTS_SWEEP_MS = 1_000;
/** The waits after the 1st, 2nd, … failed attempt: about a day and a quarter in all; after the last, FAILED. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** A webhook whose every delivery has failed this long is turned off. */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;
/** Attempts made at once in a pass: a receiver that never answers holds up at most this many. */
const ATTEMPTS_PER_PASS = 10;
/** An event fanned out is kept this long (its deliveries and emails keep what it said), then removed. */
export const FANNED_KEPT_MS = 24 * 3_600_000;
const EVENTS_PER_PASS = 100;

const SLOT = Symbol.for("treasury-dashboard.event-dispatchers");
const holder = globalThis as { [SLOT]?: WeakMap<Runtime, LeaderPasses> };
const dispatchers = (holder[SLOT] ??= new WeakMap());

export function dispatchEventsInBackground(rt: Runtime): void {
  const dispatcher = eventDispatcher(rt);
  dispatchers.set(rt, dispatcher);
  dispatcher.kick();
}

/** Tells the dispatcher there is work now (a retry, a test event); the sweep finds the rest. */
export const kickEvents = (rt: Runtime): void => dispatchers.get(rt)?.kick();

/** Resolves once the pass under way, and one asked for meanwhile, is over: for tests. */
export const eventsIdle = (rt: Runtime): Promise<void> => dispatchers.get(rt)?.idle() ?? Promise.resolve();

/** One pass at a time (lib/server/ops/leader-passes.ts), woken for the next attempt due, and the outbox pruned. */
function eventDispatcher(rt: Runtime): LeaderPasses {
  const cancelPrune = rt.clock.every(FANNED_KEPT_MS / 24, () => {
    if (!rt.live.leading) return;
    void pruneFannedEvents(rt.db, new Date(rt.clock.now() - FANNED_KEPT_MS)).catch((error: unknown) =>
      log.warn({ err: error }, "events: the fanned-out events were not pruned"),
    );
  });
  rt.lifecycle.signal.addEventListener("abort", cancelPrune, { once: true });
  return leaderPasses(
    rt,
    "events",
    async () => {
      await fanOut(rt);
      await followRecords(rt);
      await deliverDue(rt);
      await sendDueEmails(rt);
      const next = await nextDue(rt.db);
      return next === undefined ? undefined : Date.parse(next);
    },
    EVENTS_SWEEP_MS,
  );
}

/** Step 1: each new event's deliveries and emails, written with its mark in one transaction. */
async function fanOut(rt: Runtime): Promise<void> {
  for (;;) {
    const events = await unfannedEvents(rt.db, EVENTS_PER_PASS);
    if (events.length === 0) return;
    await prepareEmails(rt, events);
    for (const event of events) await fanOutOne(rt, event);
    if (events.length < EVENTS_PER_PASS) return;
  }
}

async function fanOutOne(rt: Runtime, event: OutboxRow): Promise<void> {
  const at = new Date(rt.clock.now());
  await rt.db.transaction().execute(async (tx) => {
    if (!(await markFanned(tx, event.id, at))) return;
    const body: EventBody = { type: event.type, timestamp: event.at, data: JSON.parse(event.data_json) as unknown };
    const hooks = (await enabledWebhooks(tx)).filter((w) =>
      subscribes(JSON.parse(w.events_json) as string[], event.type),
    );
    await insertDeliveries(
      tx,
      hooks.map((w) => newDelivery(w.id, event.id, body, at.toISOString())),
    );
    await insertEmails(tx, await emailsOfEvent(rt, tx, event, at));
  });
}

/** Step 3: every attempt due now. */
async function deliverDue(rt: Runtime): Promise<void> {
  const due = await dueDeliveries(rt.db, new Date(rt.clock.now()), ATTEMPTS_PER_PASS);
  await Promise.all(due.map((delivery) => deliverOne(rt, delivery)));
}

async function deliverOne(rt: Runtime, delivery: DeliveryRow): Promise<void> {
  const webhook = await webhookById(rt.db, delivery.webhook_id);
  if (!webhook || Number(webhook.enabled) !== 1) {
    await updateDelivery(rt.db, delivery.id, {
      status: "FAILED",
      next_attempt_at: null,
      last_error: "the webhook is turned off",
    });
    return;
  }
  const result = await attempt(rt, webhook, delivery);
  const now = new Date(rt.clock.now());
  const attempts = Number(delivery.attempts) + 1;
  const kept =
    "status" in result
      ? { last_status_code: result.status, response_body: result.body, last_error: null }
      : { last_status_code: null, response_body: null, last_error: result.error };
  if ("status" in result && result.status >= 200 && result.status < 300) {
    await updateDelivery(rt.db, delivery.id, {
      ...kept,
      status: "DELIVERED",
      attempts,
      next_attempt_at: null,
      delivered_at: now.toISOString(),
    });
    if (webhook.failing_since) await updateWebhook(rt.db, webhook.id, { failing_since: null });
    return;
  }
  const wait = RETRY_DELAYS_MS[attempts - 1];
  await updateDelivery(rt.db, delivery.id, {
    ...kept,
    status: wait === undefined ? "FAILED" : "PENDING",
    attempts,
    next_attempt_at: wait === undefined ? null : new Date(now.getTime() + wait).toISOString(),
  });
  await noteFailure(rt, webhook, now);
}

/** One signed POST; the signature's time is the machine's, which the receiver compares with its own. */
async function attempt(rt: Runtime, webhook: WebhookRow, delivery: DeliveryRow): Promise<AttemptResult> {
  const url = new URL(webhook.url);
  let address;
  try {
    address = await resolveWebhookAddress(url, allowedHosts(rt.config.WEBHOOK_ALLOW_HOSTS));
  } catch (error) {
    if (error instanceof AddressRefused) return { error: error.message };
    throw error;
  }
  const sentAt = new Date();
  const signature = new Webhook(openSecret(rt.authSecret, webhook.secret_sealed)).sign(
    delivery.id,
    sentAt,
    delivery.body_json,
  );
  return attemptDelivery({
    url,
    address,
    body: delivery.body_json,
    headers: {
      "webhook-id": delivery.id,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": signature,
      "user-agent": "treasury-dashboard-webhooks/1",
    },
  });
}

/** A failed attempt: the webhook's failing streak starts, or, DISABLE_AFTER_MS into it, the webhook is turned off. */
async function noteFailure(rt: Runtime, webhook: WebhookRow, now: Date): Promise<void> {
  const since = webhook.failing_since;
  if (!since) {
    await updateWebhook(rt.db, webhook.id, { failing_since: now.toISOString() });
    return;
  }
  if (now.getTime() - Date.parse(since) < DISABLE_AFTER_MS) return;
  const turnedOff = await rt.db.transaction().execute(async (tx) => {
    const done = await tx
      .updateTable("webhooks")
      .set({ enabled: 0, disabled_at: now.toISOString() })
      .where("id", "=", webhook.id)
      .where("enabled", "=", 1)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return false;
    await recordEvent(tx, {
      type: "webhook.disabled",
      at: now,
      data: { webhook: { id: webhook.id, url: webhook.url, failing_since: since, disabled_at: now.toISOString() } },
    });
    return true;
  });
  if (!turnedOff) return;
  await rt.audit.append({
    action: "webhook.disabled",
    subject: webhook.id,
    detail: { url: webhook.url, failing_since: since },
  });
}
