import "server-only";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { EmailRow, OutboxRow } from "../db/webhooks";
import type { Runtime } from "../runtime";

/**
 * Email (issue 30), through SMTP_URL with nodemailer: who is told of an event (`emailsOfEvent`,
 * in the dispatcher's fan-out transaction), and the sending of the emails due (`sendDueEmails`).
 * PLACEHOLDER: being written (helper); until then no email.
 */
export async function emailsOfEvent(
  _rt: Runtime,
  _tx: Kysely<Database>,
  _event: OutboxRow,
  _at: Date,
): Promise<EmailRow[]> {
  return [];
}

export async function sendDueEmails(_rt: Runtime): Promise<void> {}
