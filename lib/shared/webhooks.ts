import * as z from "zod/mini";

/**
 * Events out (issue 30): what a webhook may subscribe to, the request that registers one, and how
 * the API shows webhooks and their deliveries. One schema for the Settings page's form and the
 * route handler.
 */

/** Every event the dashboard sends, in the words a receiver switches on. */
export const EVENT_TYPES = [
  "approval.requested",
  "approval.decided",
  "order.created",
  "order.filled",
  "order.cancelled",
  "transfer.created",
  "transfer.completed",
  "transfer.failed",
  "batch.completed",
  "parent_order.completed",
  "limit.refused",
  "policy.changed",
  "audit.verify_failed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Events the outbox carries for the dashboard's own emails, never to a webhook. */
export const INTERNAL_EVENT_TYPES = ["webhook.disabled"] as const;
export type InternalEventType = (typeof INTERNAL_EVENT_TYPES)[number];

/** Sent only by "Send test event": no subscription needed. */
export const TEST_EVENT_TYPE = "webhook.test";

export const isEventType = (value: unknown): value is EventType =>
  typeof value === "string" && (EVENT_TYPES as readonly string[]).includes(value);

/** A webhook's secret starts with this (the Standard Webhooks convention). */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_URL_MAX = 2000;

export const newWebhookSchema = z.strictObject({
  url: z.string({ error: (issue) => (issue.input === undefined ? "URL is required" : "URL must be text") }).check(
    z.trim(),
    z.minLength(1, "URL must not be empty"),
    z.maxLength(WEBHOOK_URL_MAX, `URL may be at most ${WEBHOOK_URL_MAX} characters`),
    z.refine((text) => URL.canParse(text), "URL must be an absolute URL such as https://ledger.example.com/hooks"),
  ),
  events: z
    .array(
      z
        .string()
        .check(
          z.refine(
            (type) => type === "*" || isEventType(type),
            `Each event must be "*" or one of ${EVENT_TYPES.join(", ")}`,
          ),
        ),
      {
        error: (issue) =>
          issue.input === undefined
            ? `Events is required: a list such as ["order.filled"], or ["*"] for every event`
            : `Events must be a list such as ["order.filled"], or ["*"] for every event`,
      },
    )
    .check(
      z.minLength(1, `Events must name at least one event, or "*" for every event`),
      z.refine((types) => new Set(types).size === types.length, "Events must not name an event twice"),
      z.refine((types) => !types.includes("*") || types.length === 1, `Events: "*" stands alone`),
    ),
  description: z.optional(
    z
      .string({ error: "Description must be text" })
      .check(
        z.trim(),
        z.maxLength(WEBHOOK_DESCRIPTION_MAX, `Description may be at most ${WEBHOOK_DESCRIPTION_MAX} characters`),
      ),
  ),
});

export type NewWebhook = z.output<typeof newWebhookSchema>;

/** A webhook as the API shows it; never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  created_at: string;
  created_by: string;
  /** Since when every delivery has failed; null while it delivers. */
  failing_since: string | null;
  /** When it was turned off after failing for WEBHOOK_DISABLE_AFTER_MS; null while enabled. */
  disabled_at: string | null;
}

export const DELIVERY_STATUSES = ["PENDING", "DELIVERED", "FAILED"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event for one webhook; `id` is the `webhook-id` every attempt carries. */
export interface DeliveryView {
  id: string;
  webhook_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  /** Why the last attempt failed when no status code says (a timeout, a refused address). */
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** The body every delivery carries: `{type, timestamp, data}`. */
export interface EventBody {
  type: string;
  timestamp: string;
  data: unknown;
}

/** Whether a webhook subscribed to `events` receives `type`. */
export const subscribes = (events: readonly string[], type: string): boolean =>
  isEventType(type) && (events.includes("*") || events.includes(type));

/** The event a created order or transfer's status reports once final; undefined for the others. */
export function finalEventOf(kind: string, status: string): EventType | undefined {
  if (kind === "order")
    return status === "FILLED" ? "order.filled" : status === "CANCELLED" ? "order.cancelled" : undefined;
  if (kind === "transfer") {
    return status === "COMPLETED" ? "transfer.completed" : status === "FAILED" ? "transfer.failed" : undefined;
  }
  return undefined;
}

/** Whether a followed record's status can still change (what the record follower keeps reading). */
export const isOpenStatus = (kind: string, status: string): boolean =>
  kind === "order"
    ? !["FILLED", "CANCELLED", "REJECTED"].includes(status)
    : kind === "transfer" && status === "PENDING";
