import "server-only";
import { createTransport, type Transporter } from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import { claimEmail, dueEmails, updateEmail, type EmailRow } from "../db/webhooks";
import { log } from "../ops/log";
import type { Runtime } from "../runtime";

/**
 * The sending of the emails due (issue 30), the leader's dispatcher's last step: each PENDING
 * email due is taken (claimEmail: two passes, or two instances in a failover, never send one
 * email at once), handed to SMTP_URL from MAIL_FROM, and marked SENT; a failure is tried again
 * after EMAIL_RETRY_DELAYS_MS, then FAILED with its last error kept.
 *
 * At least once: a crash between the SMTP server's acceptance and the row's update leaves the
 * email PENDING, and it is sent again once its claim runs out. Every attempt of an email carries
 * the same Message-ID, `<email-row-id@treasury-dashboard>`, and the same Date, so the receiving
 * mail systems (and people) recognise the second as the same message, and most drop it.
 */

/** The waits after the 1st, 2nd, … failed attempt; after the last, FAILED. */
export const EMAIL_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000];
/** How long an email is taken for by the pass sending it: past the time limits below, so it is never sent twice at once. */
export const EMAIL_CLAIM_MS = 120_000;
/** Sent at once in a pass; the rest in the next pass, at once after. */
const EMAILS_PER_PASS = 5;
const LAST_ERROR_CHARS = 500;

/** One transport per runtime: its SMTP_URL, with time limits so that a mute server holds a pass up for seconds, not minutes. */
const transports = new WeakMap<Runtime, Transporter<SMTPTransport.SentMessageInfo>>();

function transportOf(rt: Runtime, url: string): Transporter<SMTPTransport.SentMessageInfo> {
  let transport = transports.get(rt);
  if (!transport) {
    transport = createTransport(
      new SMTPTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    );
    transports.set(rt, transport);
  }
  return transport;
}

/** The Message-ID of every attempt of this email. */
export const messageIdOf = (row: Pick<EmailRow, "id">): string => `<${row.id}@treasury-dashboard>`;

export async function sendDueEmails(rt: Runtime): Promise<void> {
  const now = new Date(rt.clock.now());
  const due = await dueEmails(rt.db, now, EMAILS_PER_PASS);
  if (due.length === 0) return;
  const url = rt.config.SMTP_URL;
  if (!url) {
    // Written while SMTP_URL was set, due now that it is not: said once each, not retried in a loop.
    for (const row of due) {
      await updateEmail(rt.db, row.id, {
        status: "FAILED",
        next_attempt_at: null,
        last_error: "SMTP_URL is not set: no email is sent",
      });
    }
    return;
  }
  await Promise.all(due.map((row) => sendOne(rt, url, row, now)));
}

async function sendOne(rt: Runtime, url: string, row: EmailRow, now: Date): Promise<void> {
  if (!(await claimEmail(rt.db, row, new Date(now.getTime() + EMAIL_CLAIM_MS)))) return;
  const attempts = Number(row.attempts) + 1;
  try {
    await transportOf(rt, url).sendMail({
      from: rt.config.MAIL_FROM,
      to: row.to_email,
      subject: row.subject,
      text: row.text_body,
      messageId: messageIdOf(row),
      date: new Date(row.created_at),
      // RFC 3834: no out-of-office answers to a machine's message.
      headers: { "Auto-Submitted": "auto-generated" },
    });
  } catch (error) {
    const wait = EMAIL_RETRY_DELAYS_MS[attempts - 1];
    const at = new Date(rt.clock.now());
    const message = error instanceof Error ? error.message : String(error);
    log.warn({ email: row.id, attempts, err: error }, "events: an email was not sent");
    await updateEmail(rt.db, row.id, {
      status: wait === undefined ? "FAILED" : "PENDING",
      attempts,
      last_error: message.slice(0, LAST_ERROR_CHARS),
      next_attempt_at: wait === undefined ? null : new Date(at.getTime() + wait).toISOString(),
    });
    return;
  }
  await updateEmail(rt.db, row.id, {
    status: "SENT",
    attempts,
    last_error: null,
    next_attempt_at: null,
    sent_at: new Date(rt.clock.now()).toISOString(),
  });
}
