import "server-only";
import { randomUUID } from "node:crypto";
import type { Approval } from "@/lib/shared/approval";
import type { Nickname } from "@/lib/shared/named-profiles";
import type { Db } from "../db";
import type { EmailRow, OutboxRow } from "../db/webhooks";
import { log } from "../ops/log";
import type { Runtime } from "../runtime";
import { deskProfiles } from "../upstream/desk-profiles";
import { decidersToTell, knownPeople, personWords, requesterToTell, webhookKeepers } from "./mail-recipients";
import {
  approvalDecidedWords,
  approvalRequestedWords,
  webhookDisabledWords,
  type DisabledWebhook,
  type EmailWords,
  type WordsContext,
} from "./mail-words";

export { sendDueEmails } from "./mail-sender";

/**
 * Email (issue 30), through SMTP_URL with nodemailer: who is told of an event, in the
 * dispatcher's fan-out transaction, one PENDING email row each, written with the event's mark
 * (so a crash neither loses an email nor, by the unique (event_id, to_email), repeats one);
 * mail-sender.ts sends them. Every email is made from the event's data alone, whichever module
 * wrote it:
 * - `approval.requested` `{approval}`: everyone who may decide it, never its requester, less
 *   those who turned these emails off;
 * - `approval.decided` `{approval}`: its requester (unless they turned them off), when it was
 *   approved, rejected or expired; a withdrawal is the requester's own act and tells nobody;
 * - `webhook.disabled` `{webhook}`: every admin, whatever they chose.
 * With no SMTP_URL, nobody: no email and no error.
 */

/** The profiles' nicknames each runtime last read, for the words; read before a fan-out, never inside its transaction. */
const nicknames = new WeakMap<Runtime, Nickname>();

/**
 * Before the fan-out's transactions: reads the desk's profiles (lib/server/upstream/desk-profiles.ts
 * keeps them a while) when an email will name one, so that no call to the service is made while
 * the transaction holds the database. Unread, the emails name profiles by id.
 */
export async function prepareEmails(rt: Runtime, events: readonly OutboxRow[]): Promise<void> {
  if (!rt.config.SMTP_URL || !events.some((e) => e.type.startsWith("approval."))) return;
  try {
    const profiles = await deskProfiles(rt.upstream, rt.clock.now);
    const names = new Map(profiles.filter((p) => p.nickname).map((p) => [p.id, p.nickname]));
    nicknames.set(rt, (id) => names.get(id) ?? id);
  } catch (error) {
    log.warn({ err: error }, "events: the profiles' names could not be read; emails name profiles by id");
  }
}

export async function emailsOfEvent(rt: Runtime, tx: Db, event: OutboxRow, at: Date): Promise<EmailRow[]> {
  if (!rt.config.SMTP_URL) return [];
  const told = await whoIsTold(rt, tx, event);
  return [...new Map(told.map((t) => [t.to.toLowerCase(), t])).values()].map((t) => ({
    id: `mail_${randomUUID()}`,
    event_id: event.id,
    to_email: t.to,
    subject: t.words.subject,
    text_body: t.words.text,
    status: "PENDING",
    attempts: 0,
    last_error: null,
    next_attempt_at: at.toISOString(),
    created_at: at.toISOString(),
    sent_at: null,
  }));
}

interface Told {
  to: string;
  words: EmailWords;
}

async function whoIsTold(rt: Runtime, tx: Db, event: OutboxRow): Promise<Told[]> {
  const data = JSON.parse(event.data_json) as { approval?: Approval; webhook?: DisabledWebhook };
  switch (event.type) {
    case "approval.requested":
    case "approval.decided": {
      const approval = data.approval;
      if (!isApproval(approval)) return malformed(event);
      const people = await knownPeople(rt, tx);
      const ctx: WordsContext = {
        nickname: nicknames.get(rt) ?? ((id) => id),
        baseUrl: baseUrlOf(rt),
        person: (email) => personWords(email, people),
      };
      if (event.type === "approval.requested") {
        const words = wordsOf(event, () => approvalRequestedWords(approval, ctx));
        if (!words) return [];
        return (await decidersToTell(tx, approval, people)).map((p) => ({ to: p.email, words }));
      }
      const words = wordsOf(event, () => approvalDecidedWords(approval, ctx));
      if (!words) return [];
      return (await requesterToTell(tx, approval)).map((to) => ({ to, words }));
    }
    case "webhook.disabled": {
      const webhook = data.webhook;
      if (!webhook || typeof webhook.url !== "string") return malformed(event);
      const words = wordsOf(event, () => webhookDisabledWords(webhook));
      if (!words) return [];
      return webhookKeepers(await knownPeople(rt, tx)).map((p) => ({ to: p.email, words }));
    }
    default:
      return [];
  }
}

/** The fields the words read, there and of their types: anything else would throw inside the fan-out's transaction. */
function isApproval(value: unknown): value is Approval {
  if (typeof value !== "object" || value === null) return false;
  const a = value as Record<string, unknown>;
  const texts = ["id", "status", "kind", "requested_by", "requested_name", "created_at", "expires_at"];
  return (
    texts.every((key) => typeof a[key] === "string") &&
    typeof a.request === "object" &&
    a.request !== null &&
    Array.isArray(a.approvals) &&
    typeof a.approvals_needed === "number"
  );
}

/** An event whose data is not what its type says tells nobody: said in the log, never a pass stopped on it. */
function malformed(event: OutboxRow, error?: unknown): Told[] {
  log.warn({ event: event.id, type: event.type, err: error }, "events: an event's data is not its type's; no email");
  return [];
}

/** The words, or none when the event's data cannot be said (a record of a shape the words do not know). */
function wordsOf(event: OutboxRow, say: () => EmailWords | undefined): EmailWords | undefined {
  try {
    return say();
  } catch (error) {
    malformed(event, error);
    return undefined;
  }
}

/** The dashboard's address as its people open it: NEXTAUTH_URL, else this machine's port. */
const baseUrlOf = (rt: Runtime): string =>
  (rt.config.NEXTAUTH_URL ?? `http://localhost:${rt.config.PORT}`).replace(/\/+$/, "");
