import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Selectable } from "kysely";
import { canonicalJson } from "./canonical-json";
import { isUniqueViolation, type Db } from "./db";
import type { AuditTable } from "./db/schema";

/**
 * The audit trail: every sign-in, create, approval, cancel, policy change and export, one
 * entry each, never overwritten. Each entry carries a keyed hash (HMAC-SHA256) of itself and
 * of the entry before it, and the newest entry is also kept apart (audit_head): editing,
 * inserting or deleting any stored row, the newest included, breaks the chain, and without
 * the key nobody can forge a new one.
 */

export type AuditAction =
  | "sign-in"
  | "sign-in.failed"
  | "sign-out"
  | "session.revoked"
  | "create.requested"
  | "create.succeeded"
  | "create.failed"
  | "create.duplicate-confirmed"
  | "create.duplicate-declined"
  | "approval.requested"
  | "approval.approved"
  | "approval.rejected"
  | "approval.withdrawn"
  | "approval.expired"
  | "cancel.requested"
  | "cancel.succeeded"
  | "cancel.failed"
  | "policy.changed"
  | "limit.refused"
  | "price-guard.confirmed"
  | "export.csv";

export interface AuditEvent {
  action: AuditAction;
  actor?: { email: string; role: string } | null;
  ip?: string | null;
  /** What it is about: a ref_id, an approval id, an order id, a policy. */
  subject?: string | null;
  detail?: Record<string, unknown>;
}

export interface AuditEntry {
  seq: number;
  at: string;
  action: AuditAction;
  actor_email: string | null;
  actor_role: string | null;
  ip: string | null;
  subject: string | null;
  detail: Record<string, unknown>;
  hash: string;
}

export type AuditVerification =
  { ok: true; entries: number } | { ok: false; entries: number; broken: { seq: number; reason: string } };

const GENESIS = "0".repeat(64);
const ATTEMPTS = 50;

export interface AuditTrail {
  append(event: AuditEvent): Promise<AuditEntry>;
  verify(): Promise<AuditVerification>;
}

export function createAuditTrail(db: Db, key: string, now: () => Date = () => new Date()): AuditTrail {
  const hashOf = (prevHash: string, row: Omit<Selectable<AuditTable>, "hash" | "prev_hash">) =>
    createHmac("sha256", key)
      .update(`${prevHash}\n${canonicalJson(row)}`)
      .digest("hex");

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
        detail_json: canonicalJson(event.detail ?? {}),
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
      return toEntry({ ...fields, prev_hash, hash });
    });
  }

  return {
    async append(event) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await appendOnce(event);
        } catch (error) {
          const raced = error instanceof ChainMoved || isUniqueViolation(error) || isBusy(error);
          if (!raced || attempt >= ATTEMPTS) throw error;
          await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
        }
      }
    },

    async verify() {
      let prev = GENESIS;
      let entries = 0;
      const broken = (seq: number, reason: string): AuditVerification => ({
        ok: false,
        entries,
        broken: { seq, reason },
      });
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
        }
        if (rows.length < 1000) break;
      }
      const head = await db.selectFrom("audit_head").selectAll().where("id", "=", 1).executeTakeFirst();
      const headSeq = head ? Number(head.seq) : 0;
      if (headSeq !== entries || (head && head.hash !== prev)) {
        return broken(Math.max(headSeq, entries + 1), "newest entries removed or altered");
      }
      return { ok: true, entries };
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
