import "server-only";
import { randomUUID } from "node:crypto";
import {
  newWebhookSchema,
  TEST_EVENT_TYPE,
  type DeliveryView,
  type EventBody,
  type WebhookView,
} from "@/lib/shared/webhooks";
import { problem, ProblemError } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import {
  deleteWebhook,
  deliveriesOf,
  deliveryById,
  insertDeliveries,
  insertWebhook,
  listWebhooks,
  updateDelivery,
  webhookById,
  type WebhookRow,
} from "../db/webhooks";
import { fieldProblem, parseOr400 } from "../http/toolkit";
import type { Runtime } from "../runtime";
import { AddressRefused, allowedHosts, resolveWebhookAddress } from "./address-guard";
import { kickEvents } from "./dispatcher";
import { deliveryView, newDelivery } from "./deliveries";
import { newWebhookSecret, sealSecret } from "./secrets";

/**
 * Webhooks (issue 30), an admin's: registered with the URL checked against request forgery
 * (address-guard.ts) and a secret shown once, listed, removed; each one's deliveries listed and
 * retried, and a test event sent. The deliveries themselves are the dispatcher's (dispatcher.ts).
 */

/** How many of a webhook's deliveries its list shows, newest first. */
export const DELIVERIES_LISTED = 100;

export const webhookView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events_json) as string[],
  description: row.description,
  enabled: Number(row.enabled) === 1,
  created_at: row.created_at,
  created_by: row.created_by,
  failing_since: row.failing_since,
  disabled_at: row.disabled_at,
});

/** `POST /api/webhooks`: the webhook and its secret, shown this once. */
export async function registerWebhook(
  rt: Runtime,
  user: SignedInUser,
  input: unknown,
  ip: string | null,
): Promise<{ webhook: WebhookView; secret: string }> {
  const asked = parseOr400(newWebhookSchema, input);
  const url = new URL(asked.url);
  try {
    await resolveWebhookAddress(url, allowedHosts(rt.config.WEBHOOK_ALLOW_HOSTS));
  } catch (error) {
    if (error instanceof AddressRefused) throw fieldProblem("url", error.message);
    throw error;
  }
  const secret = newWebhookSecret();
  const row: WebhookRow = {
    id: `wh_${randomUUID()}`,
    url: url.toString(),
    events_json: JSON.stringify(asked.events),
    description: asked.description ?? "",
    secret_sealed: sealSecret(rt.authSecret, secret),
    enabled: 1,
    created_at: new Date(rt.clock.now()).toISOString(),
    created_by: user.email,
    failing_since: null,
    disabled_at: null,
  };
  await insertWebhook(rt.db, row);
  const webhook = webhookView(row);
  await rt.audit.append({
    action: "webhook.created",
    actor: user,
    ip,
    subject: row.id,
    detail: { url: webhook.url, events: webhook.events, description: webhook.description },
  });
  return { webhook, secret };
}

export async function listWebhookViews(rt: Runtime): Promise<WebhookView[]> {
  return (await listWebhooks(rt.db)).map(webhookView);
}

async function existing(rt: Runtime, id: string): Promise<WebhookRow> {
  const row = await webhookById(rt.db, id);
  if (!row) throw new ProblemError(problem(404, "Not Found", `There is no webhook ${id}.`));
  return row;
}

/** `DELETE /api/webhooks/{id}`: it and its deliveries are gone; nothing more is sent to it. */
export async function removeWebhook(rt: Runtime, user: SignedInUser, id: string, ip: string | null) {
  const row = await existing(rt, id);
  if (!(await deleteWebhook(rt.db, id)))
    throw new ProblemError(problem(404, "Not Found", `There is no webhook ${id}.`));
  await rt.audit.append({ action: "webhook.deleted", actor: user, ip, subject: id, detail: { url: row.url } });
  return webhookView(row);
}

export async function deliveryViewsOf(rt: Runtime, id: string): Promise<DeliveryView[]> {
  await existing(rt, id);
  return (await deliveriesOf(rt.db, id, DELIVERIES_LISTED)).map(deliveryView);
}

/**
 * `POST …/deliveries/{delivery_id}/retry`: one more attempt now, with the same webhook-id. A
 * delivery already waiting for its next attempt has it brought forward; a delivered one is a 409.
 */
export async function retryDelivery(
  rt: Runtime,
  user: SignedInUser,
  id: string,
  deliveryId: string,
  ip: string | null,
): Promise<DeliveryView> {
  const webhook = await existing(rt, id);
  const row = await deliveryById(rt.db, id, deliveryId);
  if (!row) throw new ProblemError(problem(404, "Not Found", `Webhook ${id} has no delivery ${deliveryId}.`));
  if (Number(webhook.enabled) !== 1) {
    throw new ProblemError(
      problem(409, "Conflict", `Webhook ${id} is turned off: add it again to send to ${webhook.url}.`),
    );
  }
  // A retry clicked just as the automatic one delivered must not send it again.
  if (row.status === "DELIVERED") {
    throw new ProblemError(problem(409, "Conflict", `Delivery ${deliveryId} was delivered at ${row.delivered_at}.`));
  }
  const due = new Date(rt.clock.now()).toISOString();
  await updateDelivery(rt.db, deliveryId, { status: "PENDING", next_attempt_at: due });
  await rt.audit.append({
    action: "webhook.delivery_retried",
    actor: user,
    ip,
    subject: deliveryId,
    detail: { webhook_id: id, event_type: row.event_type, status_before: row.status },
  });
  kickEvents(rt);
  return deliveryView({ ...row, status: "PENDING", next_attempt_at: due });
}

/** `POST /api/webhooks/{id}/test`: a `webhook.test` event to this webhook alone, delivered like any other. */
export async function sendTestEvent(rt: Runtime, user: SignedInUser, id: string, ip: string | null) {
  const webhook = await existing(rt, id);
  if (Number(webhook.enabled) !== 1) {
    throw new ProblemError(problem(409, "Conflict", `Webhook ${id} is turned off.`));
  }
  const at = new Date(rt.clock.now()).toISOString();
  const body: EventBody = {
    type: TEST_EVENT_TYPE,
    timestamp: at,
    data: { webhook: { id, url: webhook.url }, sent_by: user.email },
  };
  const row = newDelivery(webhook.id, `evt_${randomUUID()}`, body, at);
  await insertDeliveries(rt.db, [row]);
  await rt.audit.append({ action: "webhook.test_sent", actor: user, ip, subject: id, detail: { delivery_id: row.id } });
  kickEvents(rt);
  return deliveryView(row);
}
