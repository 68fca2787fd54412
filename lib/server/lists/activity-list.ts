import "server-only";
import * as z from "zod";
import type { ActivityEntry } from "@/lib/shared/activity-outcome";
import { ACTIVITY_CSV_HEADER, activityCsvRow } from "@/lib/shared/activity-rows";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import type { Page } from "@/lib/shared/list-routes";
import { mentionsAnId, namedProblem, type Nickname } from "@/lib/shared/named-profiles";
import { parseOr400, queryNamesOf, queryOf } from "@/lib/server/http/toolkit";
import { EXPORT_SCAN_CAP, stoppedLine, type CsvRows } from "./csv-response";
import type { Db } from "../db";
import { votesOf } from "../db/approvals";
import { listEntries, MAX_PAGE_SIZE, type JournalPage, type JournalQuery } from "../db/journal";
import { profileNicknames } from "./record-names";
import { recordStatusesNow } from "./records-now";
import { instantParam, limitParam, userParam } from "./list-query";
import type { Runtime } from "../runtime";

/**
 * The journal as the activity table and its CSV ask for it: by kind, status, any part of the
 * user's email, the profile, ref_ids, and a created_at range (from inclusive, to exclusive).
 */

const filters = {
  kind: z.enum(["order", "transfer", "cancel"], { error: "kind must be order, transfer or cancel" }).optional(),
  user: userParam,
  status: z
    .enum(["pending", "succeeded", "failed"], { error: "status must be pending, succeeded or failed" })
    .optional(),
  profile_id: z.string().optional(),
  // Compared as the journal writes times: ISO 8601 in UTC.
  from: instantParam("from", { utc: true }),
  to: instantParam("to", { utc: true }),
};
/** GET /api/activity's query: the filters, ref_ids, the page (the OpenAPI document's parameters). */
export const activityListQuery = z.object({
  ...filters,
  ref_ids: z.array(z.string()).max(MAX_PAGE_SIZE, `ref_ids may list at most ${MAX_PAGE_SIZE} ids`).optional(),
  limit: limitParam(MAX_PAGE_SIZE).optional(),
  cursor: z.string().optional(),
});

/** GET /api/activity/export.csv's query: the filters alone. */
export const activityExportQuery = z.object(filters);

const journalQuery = (q: z.output<z.ZodObject<typeof filters>>): JournalQuery => ({
  kind: q.kind,
  userContains: q.user?.trim() || undefined,
  status: q.status,
  profileId: q.profile_id,
  from: q.from,
  to: q.to,
});

/** GET /api/activity: one page of the journal, newest first, as the desk reads it (asTheDeskReads). */
export async function listActivity(rt: Runtime, url: URL): Promise<Page<ActivityEntry>> {
  const q = parseOr400(activityListQuery, queryOf(url, ...queryNamesOf(activityListQuery)));
  const page = await withApprovals(
    rt.db,
    await listEntries(rt.db, { ...journalQuery(q), refIds: q.ref_ids, limit: q.limit, cursor: q.cursor }),
  );
  return { ...page, items: await asTheDeskReads(rt, page.items, nicknamesFor(rt, page.items)) };
}

/**
 * Entries with what the desk reads beside the journal's own fields: each record's status at
 * the service now (an order answered SUBMITTED may be REJECTED since), and profiles by nickname
 * in the problems' words. The journal's status, record and problem meta stay as written.
 */
async function asTheDeskReads(
  rt: Runtime,
  entries: JournalEntry[],
  nicknames: Nickname | Promise<Nickname>,
): Promise<ActivityEntry[]> {
  const [statusNow, nickname] = await Promise.all([recordStatusesNow(rt.upstream, entries), nicknames]);
  return entries.map((e) => {
    const status = statusNow.get(e.id);
    return {
      ...e,
      problem: e.problem && namedProblem(e.problem, nickname),
      ...(status ? { record_status_now: status } : {}),
    };
  });
}

/** The profiles' nicknames, asked of the service only when a problem holds an id; each id as itself when it cannot say. */
async function nicknamesFor(rt: Runtime, entries: JournalEntry[]): Promise<Nickname> {
  const named = entries.some((e) => mentionsAnId(e.problem?.title) || mentionsAnId(e.problem?.detail));
  return named ? profileNicknames(rt.upstream).catch(() => (id: string) => id) : (id) => id;
}

/**
 * Each create sent under an approval, with who approved it and when: the tables show it beside
 * who asked ("Approved by approver@… at 14:02").
 */
async function withApprovals(db: Db, page: JournalPage): Promise<JournalPage> {
  const ids = page.items.map((e) => e.id);
  if (ids.length === 0) return page;
  const approved = await db
    .selectFrom("journal")
    .select(["id", "approval_id"])
    .where("id", "in", ids)
    .where("approval_id", "is not", null)
    .execute();
  if (approved.length === 0) return page;
  const votes = await votesOf(
    db,
    approved.map((r) => r.approval_id!),
  );
  const approvalOf = new Map(approved.map((r) => [r.id, r.approval_id!]));
  return {
    ...page,
    items: page.items.map((e) => {
      const id = approvalOf.get(e.id);
      if (!id) return e;
      const approved_by = votes.get(id) ?? [];
      return { ...e, approval: { id, approved_by } };
    }),
  };
}

/** GET /api/activity/export.csv: every matching entry, newest first, as CSV rows a page at a time. */
export function exportActivity(rt: Runtime, url: URL): { header: string[]; rows: CsvRows } {
  const q = journalQuery(parseOr400(activityExportQuery, queryOf(url, ...queryNamesOf(activityExportQuery))));
  return { header: ACTIVITY_CSV_HEADER, rows: activityRows(rt, q) };
}

async function* activityRows(rt: Runtime, q: JournalQuery) {
  const nickname = await profileNicknames(rt.upstream);
  let cursor: string | null = null;
  let read = 0;
  do {
    const page = await listEntries(rt.db, { ...q, limit: MAX_PAGE_SIZE, cursor });
    read += page.items.length;
    yield (await asTheDeskReads(rt, page.items, nickname)).map((e) => activityCsvRow(e, nickname));
    cursor = page.next_cursor;
  } while (cursor && read < EXPORT_SCAN_CAP);
  if (cursor) yield [stoppedLine(read, "journal entries")];
}
