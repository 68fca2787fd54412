import type { Action } from "@/lib/shared/roles";

/**
 * What GET /api/events sends. Each event's `data` is the record as JSON: an order, a transfer
 * leg, an approval, a batch (without its rows), a parent order (with its children), a profile's balances (`{profile_id, items}`), a market's ticker.
 */
export type LiveEventName = "order" | "transfer" | "approval" | "batch" | "parent_order" | "balances" | "ticker";

export interface LiveEvent {
  name: LiveEventName;
  data: unknown;
  /** The profile of a balances event, the market of a ticker: only streams showing it get it. */
  topic?: string;
}

/** The permission a role needs to receive each event (lib/shared/roles.ts), as the matching GET route asks. */
export const EVENT_ACTION: Record<LiveEventName, Action> = {
  order: "read",
  transfer: "read",
  approval: "read",
  batch: "read",
  parent_order: "read",
  balances: "read",
  ticker: "read",
};

/** What a stream's screen shows: `?profiles=...&markets=...`. */
export interface Wants {
  profiles: readonly string[];
  markets: readonly string[];
}
