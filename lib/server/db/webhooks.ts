import "server-only";
import type { Kysely, Selectable } from "kysely";
import type { Database, EmailTable, OutboxEventTable, WebhookDeliveryTable, WebhookTable } from "./schema";

/**
 * Events out (migration 0015): every query on the outbox, the webhooks, their deliveries and the
 * emails. What they mean (who may register, what is signed, when an attempt is due) is
 * lib/server/events/'s. No HTTP here.
 */

export type WebhookRow = Selectable<WebhookTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
export type EmailRow = Selectable<EmailTable>;
export type OutboxRow = Selectable<OutboxEventTable>;

type Q = Kysely<Database>;

export const insertWebhook = async (db: Q, row: WebhookRow): Promise<void> => {
  await db.insertInto("webhooks").values(row).execute();
};

/** Newest first. */
export const listWebhooks = (db: Q): Promise<WebhookRow[]> =>
  db.selectFrom("webhooks").selectAll().orderBy("created_at", "desc").orderBy("id").limit(1000).execute();

export const webhookById = (db: Q, id: string): Promise<WebhookRow | undefined> =>
  db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();

/** Removes the webhook and its deliveries: whether it was there. */
export async function deleteWebhook(db: Q, id: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom("webhook_deliveries").where("webhook_id", "=", id).execute();
    const gone = await tx.deleteFrom("webhooks").where("id", "=", id).executeTakeFirst();
    return Number(gone.numDeletedRows) === 1;
  });
}

export const enabledWebhooks = (db: Q): Promise<WebhookRow[]> =>
  db.selectFrom("webhooks").selectAll().where("enabled", "=", 1).execute();

/** The oldest events not yet fanned out. */
export const unfannedEvents = (db: Q, limit: number): Promise<OutboxRow[]> =>
  db
    .selectFrom("outbox_events")
    .selectAll()
    .where("fanned_at", "is", null)
    .orderBy("at")
    .orderBy("id")
    .limit(limit)
    .execute();

/** Marks the event fanned out unless someone did: whether this call did (the caller's transaction then stands). */
export async function markFanned(db: Q, id: string, at: Date): Promise<boolean> {
  const done = await db
    .updateTable("outbox_events")
    .set({ fanned_at: at.toISOString() })
    .where("id", "=", id)
    .where("fanned_at", "is", null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

export async function insertDeliveries(db: Q, rows: DeliveryRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto("webhook_deliveries").values(rows).execute();
}

export async function insertEmails(db: Q, rows: EmailRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto("emails").values(rows).execute();
}

/** PENDING deliveries due by `now`, the longest waiting first. */
export const dueDeliveries = (db: Q, now: Date, limit: number): Promise<DeliveryRow[]> =>
  db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("status", "=", "PENDING")
    .where("next_attempt_at", "<=", now.toISOString())
    .orderBy("next_attempt_at")
    .limit(limit)
    .execute();

/** When the next PENDING delivery or email falls due, if any. */
export async function nextDue(db: Q): Promise<string | undefined> {
  const [delivery, email] = await Promise.all([
    db
      .selectFrom("webhook_deliveries")
      .select("next_attempt_at")
      .where("status", "=", "PENDING")
      .orderBy("next_attempt_at")
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("emails")
      .select("next_attempt_at")
      .where("status", "=", "PENDING")
      .orderBy("next_attempt_at")
      .limit(1)
      .executeTakeFirst(),
  ]);
  return [delivery?.next_attempt_at, email?.next_attempt_at].filter((t): t is string => !!t).sort()[0];
}

export async function updateDelivery(db: Q, id: string, patch: Partial<DeliveryRow>): Promise<void> {
  await db.updateTable("webhook_deliveries").set(patch).where("id", "=", id).execute();
}

export const deliveryById = (db: Q, webhookId: string, id: string): Promise<DeliveryRow | undefined> =>
  db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .where("id", "=", id)
    .executeTakeFirst();

/** The webhook's deliveries, newest first. */
export const deliveriesOf = (db: Q, webhookId: string, limit: number): Promise<DeliveryRow[]> =>
  db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();

export async function updateWebhook(db: Q, id: string, patch: Partial<WebhookRow>): Promise<void> {
  await db.updateTable("webhooks").set(patch).where("id", "=", id).execute();
}

/** PENDING emails due by `now`. */
export const dueEmails = (db: Q, now: Date, limit: number): Promise<EmailRow[]> =>
  db
    .selectFrom("emails")
    .selectAll()
    .where("status", "=", "PENDING")
    .where("next_attempt_at", "<=", now.toISOString())
    .orderBy("next_attempt_at")
    .limit(limit)
    .execute();

/**
 * Takes a due email for one sending: its next attempt moved to `until` unless someone moved it
 * first (another pass, an instance that led a moment ago): whether this call took it. Should the
 * sender die before it records the outcome, the email falls due again at `until`.
 */
export async function claimEmail(db: Q, row: EmailRow, until: Date): Promise<boolean> {
  const done = await db
    .updateTable("emails")
    .set({ next_attempt_at: until.toISOString() })
    .where("id", "=", row.id)
    .where("status", "=", "PENDING")
    .where("next_attempt_at", "=", row.next_attempt_at)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

export async function updateEmail(db: Q, id: string, patch: Partial<EmailRow>): Promise<void> {
  await db.updateTable("emails").set(patch).where("id", "=", id).execute();
}

/** Whether `email` gets the emails about approvals (yes unless they turned them off). */
export async function wantsApprovalEmails(db: Q, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("mail_preferences")
    .select("approval_emails")
    .where("email", "=", email)
    .executeTakeFirst();
  return row ? Number(row.approval_emails) === 1 : true;
}

/** Which of `emails` turned the emails about approvals off: one query for them all. */
export async function approvalEmailsOff(db: Q, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .selectFrom("mail_preferences")
    .select("email")
    .where("email", "in", [...emails])
    .where("approval_emails", "=", 0)
    .execute();
  return new Set(rows.map((r) => r.email));
}

export async function setApprovalEmails(db: Q, email: string, on: boolean, at: Date): Promise<void> {
  const values = { approval_emails: on ? 1 : 0, updated_at: at.toISOString() };
  await db
    .insertInto("mail_preferences")
    .values({ email, ...values })
    .onConflict((oc) => oc.column("email").doUpdateSet(values))
    .execute();
}

/** Removes the events fanned out before `before`: their deliveries and emails carry what they said. */
export async function pruneFannedEvents(db: Q, before: Date): Promise<number> {
  const gone = await db
    .deleteFrom("outbox_events")
    .where("fanned_at", "is not", null)
    .where("fanned_at", "<", before.toISOString())
    .executeTakeFirst();
  return Number(gone.numDeletedRows);
}
