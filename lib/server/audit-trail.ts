import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Selectable } from "kysely";
import type { AuditAction, AuditEntryView } from "@/lib/shared/audit-events";
import type { AuditVerifyFailedData } from "@/lib/shared/event-data";
import { canonicalJson } from "./canonical-json";
import { isUniqueViolation, type Db } from "./db";
import { recordEvent, recordEvents, type OutboxEvent } from "./db/outbox";
import type { AuditTable } from "./db/schema";
import { currentRequest } from "./http/request-context";
import { log } from "./ops/log";

/**
 * The audit trail: every sign-in, create, approval, cancel, policy change, export and refusal,
 * one entry each, never overwritten. Each entry carries a keyed hash (HMAC-SHA256) of itself and
 * of the entry before it, so editing, inserting or deleting a stored row breaks the chain, and
 * without the key nobody can forge a new one.
 *
 * A chain cut short still looks whole, so the trail also remembers how far it reached: the
 * newest entry this instance wrote or verified (in memory), and a keyed checkpoint of it kept
 * outside the audit tables: in DATA_DIR/audit-checkpoint, which someone holding only the
 * database cannot rewind, and in the audit_checkpoint table, which every instance of a
 * deployment shares (a copy read earlier can be put back, the file cannot). `verify` fails when
 * the trail ends below any of them. The database's triggers refuse UPDATE and DELETE besides
 * (migration 0009_audit_append_only).
 */

export type { AuditAction };

export interface AuditEvent {
  action: AuditAction;
  actor?: { email: string; role: string } | null;
  ip?: string | null;
  /** What it is about: a ref_id, an approval id, an order id, a policy. */
  subject?: string | null;
  detail?: Record<string, unknown>;
  /**
   * Events to write to the outbox with the entry, when the entry is the only thing the change
   * writes (a refusal): in the entry's own transaction, so a retried append records them once.
   */
  events?: readonly OutboxEvent[];
}

/**
 * The entry's detail: the event's, and, for an entry written while a request made with a personal
 * API token is handled, the token (`{id, name}`): the one place every such entry learns it.
 */
function detailOf(event: AuditEvent): Record<string, unknown> {
  const token = currentRequest()?.token;
  return token ? { ...event.detail, token } : (event.detail ?? {});
}

/** An entry as stored, and as GET /api/audit lists it. */
export type AuditEntry = AuditEntryView;

export type AuditVerification =
  { ok: true; entries: number } | { ok: false; entries: number; broken: { seq: number; reason: string } };

const GENESIS = "0".repeat(64);
const ATTEMPTS = 50;

export interface AuditTrail {
  append(event: AuditEvent): Promise<AuditEntry>;
  verify(): Promise<AuditVerification>;
}

export interface AuditTrailOptions {
  now?: () => Date;
  /** This instance's checkpoint file (DATA_DIR/audit-checkpoint); unset: memory and the table only. */
  checkpointFile?: string;
  /** Records a failed verification as `audit.verify_failed` (the server's runtime; the CLI only reads). */
  reportFailures?: boolean;
}

/** How far the trail reached: an entry's seq and hash, keyed so that nobody without the key can make one. */
interface Checkpoint {
  seq: number;
  hash: string;
  mac: string;
}

const WROTE = "this instance wrote or verified it";
const IN_FILE = "this instance's checkpoint file records it";
const IN_TABLE = "the keyed checkpoint in the database records it";

/** A point the trail must still reach in `verify`, and who says so. */
interface Expected {
  seq: number;
  hash: string;
  source: string;
}

export function createAuditTrail(db: Db, key: string, options: AuditTrailOptions = {}): AuditTrail {
  const now = options.now ?? (() => new Date());
  const hashOf = (prevHash: string, row: Omit<Selectable<AuditTable>, "hash" | "prev_hash">) =>
    createHmac("sha256", key)
      .update(`${prevHash}\n${canonicalJson(row)}`)
      .digest("hex");
  const checkpointOf = (seq: number, hash: string): Checkpoint => ({
    seq,
    hash,
    mac: createHmac("sha256", key).update(`audit-checkpoint\n${seq}\n${hash}`).digest("hex"),
  });
  const genuine = (c: Checkpoint) => sameHex(checkpointOf(Number(c.seq), c.hash).mac, c.mac);
  const file = options.checkpointFile ? checkpointFile(options.checkpointFile) : undefined;

  /** The newest entry this instance wrote or verified; it starts from its file's (a restart forgets nothing). */
  let reached: Expected = { seq: 0, hash: GENESIS, source: WROTE };
  const fromFile = file?.read();
  if (fromFile && genuine(fromFile)) reached = { seq: Number(fromFile.seq), hash: fromFile.hash, source: IN_FILE };

  /** Remembers that the trail reached `seq` (memory, then the file, which never goes back). */
  const reach = (seq: number, hash: string) => {
    if (seq <= reached.seq) return;
    reached = { seq, hash, source: WROTE };
    try {
      file?.advance(checkpointOf(seq, hash), genuine);
    } catch (error) {
      // The entry is written; only this instance's file falls behind (memory and the table still hold).
      log.error({ err: error }, "audit: the checkpoint file was not written");
    }
  };

  async function appendOnce(event: AuditEvent): Promise<AuditEntry> {
    return db.transaction().execute(async (trx) => {
      const head = await trx.selectFrom("audit_head").selectAll().where("id", "=", 1).executeTakeFirst();
      const fields = {
        seq: (head?.seq ?? 0) + 1,
        at: now().toISOString(),
        action: event.action,
        actor_email: event.actor?.email ?? null,
        actor_role: event.actor?.role ?? null,
        ip: event.ip ?? null,
        subject: event.subject ?? null,
        detail_json: canonicalJson(detailOf(event)),
      };
      const prev_hash = head?.hash ?? GENESIS;
      const hash = hashOf(prev_hash, fields);
      // A writer racing for the same seq fails here (unique seq) or on the head's guard, and tries again.
      await trx
        .insertInto("audit")
        .values({ ...fields, prev_hash, hash })
        .execute();
      if (head) {
        const moved = await trx
          .updateTable("audit_head")
          .set({ seq: fields.seq, hash })
          .where("id", "=", 1)
          .where("seq", "=", head.seq)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new ChainMoved();
      } else {
        await trx.insertInto("audit_head").values({ id: 1, seq: fields.seq, hash }).execute();
      }
      // The deployment's checkpoint moves with the head (the head's guard has serialised writers).
      const checkpoint = checkpointOf(fields.seq, hash);
      const advanced = await trx.updateTable("audit_checkpoint").set(checkpoint).where("id", "=", 1).executeTakeFirst();
      if (Number(advanced.numUpdatedRows) === 0) {
        await trx
          .insertInto("audit_checkpoint")
          .values({ id: 1, ...checkpoint })
          .execute();
      }
      await recordEvents(trx, event.events ?? []);
      return toEntry({ ...fields, prev_hash, hash });
    });
  }

  /** Where the trail must still reach, read before walking it (the trail only grows meanwhile). */
  async function expectations(): Promise<Expected[] | { forged: string }> {
    const [head, stored] = await Promise.all([
      db.selectFrom("audit_head").selectAll().where("id", "=", 1).executeTakeFirst(),
      db.selectFrom("audit_checkpoint").selectAll().where("id", "=", 1).executeTakeFirst(),
    ]);
    const kept = file?.read();
    if (stored && !genuine(stored)) return { forged: "the checkpoint in the database was not written with the key" };
    if (kept && !genuine(kept)) return { forged: "the checkpoint file was not written with the key" };
    const expected: Expected[] = [{ ...reached }];
    if (head) expected.push({ seq: Number(head.seq), hash: head.hash, source: "audit_head names it" });
    if (stored) expected.push({ seq: Number(stored.seq), hash: stored.hash, source: IN_TABLE });
    if (kept) expected.push({ seq: Number(kept.seq), hash: kept.hash, source: IN_FILE });
    return expected.filter((e) => e.seq > 0);
  }

  /** Walks the chain from its first entry, then checks it reaches every point expected. */
  async function walk(): Promise<AuditVerification> {
    let prev = GENESIS;
    let entries = 0;
    const broken = (seq: number, reason: string): AuditVerification => ({
      ok: false,
      entries,
      broken: { seq, reason },
    });
    const expected = await expectations();
    if ("forged" in expected) return broken(1, expected.forged);
    const hashAt = new Map(expected.map((e) => [e.seq, undefined as string | undefined]));
    for (;;) {
      const rows = await db
        .selectFrom("audit")
        .selectAll()
        .where("seq", ">", entries)
        .orderBy("seq")
        .limit(1000)
        .execute();
      for (const row of rows) {
        if (Number(row.seq) !== entries + 1) return broken(entries + 1, "entry missing");
        if (row.prev_hash !== prev) return broken(Number(row.seq), "does not follow the entry before it");
        const { hash, prev_hash: _prev, ...fields } = row;
        if (!sameHex(hashOf(prev, { ...fields, seq: Number(row.seq) }), hash)) {
          return broken(Number(row.seq), "entry altered");
        }
        prev = hash;
        entries++;
        if (hashAt.has(entries)) hashAt.set(entries, hash);
      }
      if (rows.length < 1000) break;
    }
    for (const e of [...expected].sort((a, b) => b.seq - a.seq)) {
      if (e.seq > entries) {
        return broken(
          entries + 1,
          `newest entries missing: the trail ends at ${entries}, but ${e.seq} was written (${e.source})`,
        );
      }
      if (hashAt.get(e.seq) !== e.hash) return broken(e.seq, `entry replaced (${e.source} with another hash)`);
    }
    reach(entries, prev);
    return { ok: true, entries };
  }

  return {
    async append(event) {
      for (let attempt = 1; ; attempt++) {
        try {
          const entry = await appendOnce(event);
          reach(entry.seq, entry.hash);
          return entry;
        } catch (error) {
          const raced = error instanceof ChainMoved || isUniqueViolation(error) || isBusy(error);
          if (!raced || attempt >= ATTEMPTS) throw error;
          await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
        }
      }
    },

    async verify() {
      const verification = await walk();
      if (!verification.ok && options.reportFailures) {
        const data: AuditVerifyFailedData = { verification };
        // The answer stands even when the outbox cannot take it: the caller sees it either way.
        await recordEvent(db, { type: "audit.verify_failed", at: now(), data }).catch((error: unknown) =>
          log.error({ err: error }, "audit: a failed verification was not recorded in the outbox"),
        );
      }
      return verification;
    },
  };
}

/** Where an instance keeps its checkpoint of the trail outside the database. */
export const auditCheckpointFile = (dataDir: string): string => join(dataDir, "audit-checkpoint");

/** The newest entry's seq as stored now (0 for none): the gauge dashboard_audit_head_seq. */
export async function storedHeadSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom("audit")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/**
 * A checkpoint kept in a file of its own, readable by the owner only. It only ever moves forward,
 * even with another process of the same DATA_DIR writing it too; it is replaced whole (rename).
 */
function checkpointFile(path: string) {
  const read = (): Checkpoint | undefined => {
    try {
      const c = JSON.parse(readFileSync(path, "utf8")) as Checkpoint;
      return typeof c.seq === "number" && typeof c.hash === "string" && typeof c.mac === "string" ? c : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    read,
    advance(next: Checkpoint, genuine: (c: Checkpoint) => boolean) {
      const current = read();
      if (current && genuine(current) && current.seq >= next.seq) return;
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(next), { mode: 0o600 });
      renameSync(temporary, path);
    },
  };
}

class ChainMoved extends Error {}

const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === "SQLITE_BUSY";

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function toEntry(row: Selectable<AuditTable>): AuditEntry {
  return {
    seq: Number(row.seq),
    at: row.at,
    action: row.action as AuditAction,
    actor_email: row.actor_email,
    actor_role: row.actor_role,
    ip: row.ip,
    subject: row.subject,
    detail: JSON.parse(row.detail_json) as Record<string, unknown>,
    hash: row.hash,
  };
}
