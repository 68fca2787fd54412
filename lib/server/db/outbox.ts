import "server-only";
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { EventType, InternalEventType } from "@/lib/shared/webhooks";
import type { Database } from "./schema";

/**
 * The outbox (issue 30): an event is a row written with the change it reports, in the same
 * transaction (pass the transaction as `db`), so a crash between the two loses neither and a
 * rolled-back change sends nothing. The leader fans each row out to the webhooks that subscribe
 * and to the people to email, then delivers them (lib/server/events/dispatcher.ts).
 */

export interface OutboxEvent {
  type: EventType | InternalEventType;
  /** When it happened: the delivery body's `timestamp`. */
  at: Date;
  /** The records in the service's own shapes. */
  data: unknown;
}

export async function recordEvent(db: Kysely<Database>, event: OutboxEvent): Promise<void> {
  await recordEvents(db, [event]);
}

export async function recordEvents(db: Kysely<Database>, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto("outbox_events")
    .values(
      events.map((e) => ({
        id: `evt_${randomUUID()}`,
        type: e.type,
        at: e.at.toISOString(),
        data_json: JSON.stringify(e.data),
        fanned_at: null,
      })),
    )
    .execute();
}
