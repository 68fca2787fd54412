import "server-only";
import * as z from "zod";
import { AUDIT_CSV_HEADER, AUDIT_EVENT_FILTERS, auditCsvRow, type AuditEntryView } from "@/lib/shared/audit-events";
import { fieldProblem, parseOr400, queryNamesOf, queryOf } from "@/lib/server/http/toolkit";
import type { Page } from "@/lib/shared/list-routes";
import { toEntry } from "../audit-trail";
import { EXPORT_SCAN_CAP, stoppedLine, type CsvRows } from "./csv-response";
import type { Db } from "../db";
import { containsText } from "../db/contains";
import { instantParam, limitParam, userParam } from "./list-query";
import type { Runtime } from "../runtime";

/**
 * The audit trail as the Activity page reads it: by event (a family such as "approval", or
 * one event such as "approval.rejected"), any part of the user's email, and a time range
 * (from inclusive, to exclusive); newest first, paged by the entry's sequence number.
 */

export const MAX_AUDIT_PAGE = 200;

const filters = {
  event: z
    .enum(AUDIT_EVENT_FILTERS as [string, ...string[]], {
      error: `event must be one of ${AUDIT_EVENT_FILTERS.join(", ")}`,
    })
    .optional(),
  user: userParam,
  // Compared as the trail writes times: ISO 8601 in UTC.
  from: instantParam("from", { utc: true }),
  to: instantParam("to", { utc: true }),
};
/** GET /api/audit's query: the filters, the page (the OpenAPI document's parameters). */
export const auditListQuery = z.object({
  ...filters,
  limit: limitParam(MAX_AUDIT_PAGE).default(50),
  cursor: z.string().optional(),
});

/** GET /api/audit/export.csv's query: the filters alone. */
export const auditExportQuery = z.object(filters);

export interface AuditQuery {
  event?: string;
  user?: string;
  from?: string;
  to?: string;
  /** Entries before this sequence number. */
  before?: number;
  limit: number;
}

/** A page of the trail: the one list page shape (lib/shared/list-routes.ts). */
export type AuditPage = Page<AuditEntryView>;

/** One page of matching entries, newest first. */
export async function listAuditEntries(db: Db, q: AuditQuery): Promise<AuditPage> {
  let query = db.selectFrom("audit").selectAll();
  if (q.event) {
    const event = q.event;
    // A family ("approval") takes each of its events ("approval.requested", ...) and itself ("sign-in").
    query = query.where((eb) => eb.or([eb("action", "=", event), eb("action", "like", `${event}.%`)]));
  }
  const user = q.user?.trim();
  if (user) query = query.where(containsText("actor_email", user));
  if (q.from) query = query.where("at", ">=", q.from);
  if (q.to) query = query.where("at", "<", q.to);
  if (q.before !== undefined) query = query.where("seq", "<", q.before);
  const rows = await query
    .orderBy("seq", "desc")
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit).map(toEntry);
  const last = page[page.length - 1];
  return { items: page, next_cursor: rows.length > q.limit && last ? String(last.seq) : null };
}

/** The cursor is the last sequence number shown; anything else is refused on its name. */
function cursorOf(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(cursor)) throw fieldProblem("cursor", "cursor is not one this list gave");
  return Number(cursor);
}

/** GET /api/audit. */
export async function listAudit(rt: Runtime, url: URL): Promise<AuditPage> {
  const { cursor, ...q } = parseOr400(auditListQuery, queryOf(url, ...queryNamesOf(auditListQuery)));
  return listAuditEntries(rt.db, { ...q, before: cursorOf(cursor) });
}

/** GET /api/audit/export.csv: every matching entry, newest first, a page at a time. */
export function exportAudit(rt: Runtime, url: URL): { header: string[]; rows: CsvRows } {
  const q = parseOr400(auditExportQuery, queryOf(url, ...queryNamesOf(auditExportQuery)));
  return { header: AUDIT_CSV_HEADER, rows: auditRows(rt.db, q) };
}

async function* auditRows(db: Db, q: Omit<AuditQuery, "limit" | "before">) {
  let before: number | undefined;
  let read = 0;
  do {
    const page = await listAuditEntries(db, { ...q, before, limit: MAX_AUDIT_PAGE });
    read += page.items.length;
    yield page.items.map(auditCsvRow);
    before = page.next_cursor === null ? undefined : Number(page.next_cursor);
  } while (before !== undefined && read < EXPORT_SCAN_CAP);
  if (before !== undefined) yield [stoppedLine(read, "audit entries")];
}
