import "server-only";
import { randomUUID } from "node:crypto";
import type { DeliveryStatus, DeliveryView, EventBody } from "@/lib/shared/webhooks";
import type { DeliveryRow } from "../db/webhooks";

/** A webhook delivery as a row is made, and as the API shows it. */

/** A delivery of `body` to one webhook, due at once; its id is the `webhook-id` of every attempt. */
export const newDelivery = (webhookId: string, eventId: string, body: EventBody, at: string): DeliveryRow => ({
  id: `msg_${randomUUID().replaceAll("-", "")}`,
  webhook_id: webhookId,
  event_id: eventId,
  event_type: body.type,
  body_json: JSON.stringify(body),
  status: "PENDING",
  attempts: 0,
  last_status_code: null,
  last_error: null,
  response_body: null,
  next_attempt_at: at,
  created_at: at,
  delivered_at: null,
});

export const deliveryView = (row: DeliveryRow): DeliveryView => ({
  id: row.id,
  webhook_id: row.webhook_id,
  event_type: row.event_type,
  status: row.status as DeliveryStatus,
  attempts: Number(row.attempts),
  last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at,
  created_at: row.created_at,
  delivered_at: row.delivered_at,
});
