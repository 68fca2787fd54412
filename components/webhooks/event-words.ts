import type { EventType } from "@/lib/shared/webhooks";

/** What each event a webhook may subscribe to reports, in the desk's words. */
export const EVENT_WORDS: Record<EventType, string> = {
  "approval.requested": "A request waits for approval",
  "approval.decided": "A request is approved, rejected, withdrawn or expires",
  "order.created": "An order is placed",
  "order.filled": "An order fills",
  "order.cancelled": "An order is cancelled",
  "transfer.created": "A transfer is made",
  "transfer.completed": "A transfer completes",
  "transfer.failed": "A transfer fails",
  "batch.completed": "A batch of transfers is done",
  "parent_order.completed": "A TWAP parent order is done",
  "limit.refused": "A limit refuses a request",
  "policy.changed": "The policy changes",
  "audit.verify_failed": "The audit trail fails its check",
};

/** A webhook's events as a person reads them: "All events", or the list. */
export const eventsInWords = (events: readonly string[]): string =>
  events.includes("*") ? "All events, and those added later" : events.join(", ");
