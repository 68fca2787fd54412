import "server-only";
import * as z from "zod";
import { heldTransferCsvRow, TRANSFER_CSV_HEADER, transferCsvRow } from "@/lib/shared/transfer-rows";
import { AWAITING_APPROVAL, heldLegs, wantsHeld, type HeldTransfer } from "@/lib/shared/held-requests";
import { fieldProblem, parseOr400, queryNamesOf, queryOf } from "@/lib/server/http/toolkit";
import { transferCompare, TRANSFER_SORTS } from "@/lib/shared/list-routes";
import { ASSETS, identifier, TRANSFER_STATUSES, transferTypeSchema, type Transfer } from "@/lib/spec";
import { EXPORT_SCAN_CAP, stoppedLine, type CsvRows } from "./csv-response";
import { heldLegMatches, heldTransfers } from "./held-requests";
import { listPage, nothingAsked, servicePages } from "./list-page";
import { walkAll } from "./page-walk";
import { journalByRefId, profileNicknames } from "./record-names";
import { instantParam, limitParam } from "./list-query";
import type { Runtime } from "../runtime";
import type { QueryValue, UpstreamClient } from "../upstream/client";

/**
 * The service's transfers (`GET /transfer/transfers`), one record per leg, for the transfers
 * table and its CSV. List Transfers takes `profile_ids` (like `ref_ids`, `ids` and `type`) "combined
 * with created_at.* or updated_at.* filtering options only": so profile_ids goes to the service with
 * the created_at range alone, or, without it, statuses does; type, asset, and statuses beside
 * profile_ids are applied to the pages the back end reads (the footer's "matched N of M read").
 * Type is always ours to apply: the spec names types the service does not (PLATFORM_TRANSFER_*).
 * Transfers the desk's four eyes hold are not the service's yet: the first page carries the
 * matching ones in `held` (lib/server/lists/held-requests.ts); statuses=AWAITING_APPROVAL asks for
 * them, from the approvals table and never of the service, and statuses of the service's alone
 * leave them out.
 */

const STATUSES = [...TRANSFER_STATUSES, AWAITING_APPROVAL] as const;

const filters = {
  profile_ids: z.array(identifier("profile_ids")).max(100, "profile_ids may list at most 100 ids").optional(),
  statuses: z.array(z.enum(STATUSES, { error: `Transfer status must be one of ${STATUSES.join(", ")}` })).optional(),
  type: z.optional(transferTypeSchema),
  asset: z.enum(ASSETS as [string, ...string[]], { error: `asset must be one of ${ASSETS.join(", ")}` }).optional(),
  /** Created at or after. */
  from: instantParam("from"),
  /** Created before. */
  to: instantParam("to"),
};

export const MAX_TRANSFERS_PAGE = 200;

/** GET /api/transfers's query: the filters, the sort, the page (the OpenAPI document's parameters). */
export const transfersListQuery = z
  .object({
    ...filters,
    sort: z.enum(TRANSFER_SORTS, { error: `sort must be one of ${TRANSFER_SORTS.join(", ")}` }).optional(),
    dir: z.enum(["asc", "desc"], { error: "dir must be asc or desc" }).default("desc"),
    limit: limitParam(MAX_TRANSFERS_PAGE).default(50),
    cursor: z.string().optional(),
  })
  .refine((q) => !q.sort || q.asset, {
    path: ["sort"],
    message: "sort needs an asset: amounts of different assets do not compare",
  });

/** GET /api/transfers/export.csv's query: the filters alone. */
export const transfersExportQuery = z.object(filters);

type TransferFilters = z.output<z.ZodObject<typeof filters>>;

/** List Transfers' filters that combine "with created_at.* or updated_at.* filtering options only". */
const ALONE_WITH_TIMES = ["profile_ids", "ref_ids", "ids", "type"];
const TIME_FILTER = /^(created_at|updated_at)\.(lt|lte|eq|gte|gt)$/;
const PAGING = ["limit", "page_cursor", "order", "order_by"];

/**
 * The first filter of `query` that List Transfers refuses in the company it keeps (a 400 at the
 * service), with the filter it may not meet; undefined when the service takes them together.
 */
export function refusedTransferCombination(
  query: Readonly<Record<string, QueryValue>>,
): { field: string; other: string } | undefined {
  const present = Object.keys(query).filter((k) => query[k] !== undefined && query[k] !== null);
  for (const field of present.filter((k) => ALONE_WITH_TIMES.includes(k))) {
    const other = present.find((k) => k !== field && !TIME_FILTER.test(k) && !PAGING.includes(k));
    if (other) return { field, other };
  }
  return undefined;
}

/** The refusal as the back end answers it: a 400 naming the field, before anything is sent. */
export function checkTransferCombination(query: Readonly<Record<string, QueryValue>>): void {
  const refused = refusedTransferCombination(query);
  if (refused)
    throw fieldProblem(
      refused.field,
      `${refused.field} can be combined with created_at.* or updated_at.* filtering options only, not with ${refused.other}`,
    );
}

/** The service's pages of List Transfers under `query`, a combination it refuses never sent. */
export function transferPages(upstream: UpstreamClient, query: Record<string, QueryValue>) {
  checkTransferCombination(query);
  return servicePages<Transfer>(upstream, "/transfer/transfers", query);
}

/** The statuses of the service's among the filter's; undefined when none was asked for. */
const serviceStatuses = (q: TransferFilters) => q.statuses?.filter((s) => s !== AWAITING_APPROVAL);

/** The filter asks for held transfers alone: the service is not asked at all. */
const heldOnly = ({ statuses = [] }: TransferFilters): boolean =>
  statuses.length > 0 && statuses.every((s) => s === AWAITING_APPROVAL);

const heldUnder = (rt: Runtime, q: TransferFilters): Promise<HeldTransfer[]> =>
  wantsHeld(q.statuses) ? heldTransfers(rt, q) : Promise.resolve([]);

/** What the service is asked for: profile_ids or its statuses, with the created_at range. */
function serviceQuery(q: TransferFilters): Record<string, QueryValue> {
  const range = { "created_at.gte": q.from, "created_at.lt": q.to };
  return q.profile_ids ? { profile_ids: q.profile_ids, ...range } : { statuses: serviceStatuses(q), ...range };
}

/** The filters the service was not asked to apply, as a test of one leg; undefined when none is left. */
function localMatch(q: TransferFilters): ((t: Transfer) => boolean) | undefined {
  const statuses = q.profile_ids ? serviceStatuses(q) : undefined;
  if (!statuses && !q.type && !q.asset) return undefined;
  return (t) =>
    (!statuses || statuses.includes(t.status)) && (!q.type || t.type === q.type) && (!q.asset || t.asset === q.asset);
}

/**
 * GET /api/transfers: one page of the matching legs, newest first or by amount within one asset;
 * the first page (no cursor) also carries the matching held transfers in `held`.
 */
export async function listTransfers(rt: Runtime, url: URL) {
  const q = parseOr400(transfersListQuery, queryOf(url, ...queryNamesOf(transfersListQuery)));
  const { limit, cursor, ...rest } = q;
  const page = heldOnly(q)
    ? nothingAsked<Transfer>()
    : await listPage<Transfer>({
        pages: transferPages(rt.upstream, serviceQuery(q)),
        matches: localMatch(q),
        compare: q.sort ? transferCompare(q.sort, q.dir) : undefined,
        limit,
        cursor,
        query: JSON.stringify(rest),
      });
  return cursor === undefined ? { ...page, held: await heldUnder(rt, q) } : page;
}

/** GET /api/transfers/export.csv: the held transfers' legs, then every matching leg, newest first, a page at a time. */
export function exportTransfers(rt: Runtime, url: URL): { header: string[]; rows: CsvRows } {
  const q = parseOr400(transfersExportQuery, queryOf(url, ...queryNamesOf(transfersExportQuery)));
  const walk = heldOnly(q)
    ? undefined
    : walkAll(transferPages(rt.upstream, serviceQuery(q)), localMatch(q) ?? (() => true), EXPORT_SCAN_CAP);
  return { header: TRANSFER_CSV_HEADER, rows: transferRows(rt, q, walk) };
}

/**
 * Rows of each page of legs. Who initiated a transfer is known from its DEBIT leg's ref_id;
 * a CREDIT whose DEBIT is not among the legs read (another profile, or the page before) is
 * matched to it through the service's group_ids filter, as the table does.
 */
async function* transferRows(rt: Runtime, q: TransferFilters, walk: ReturnType<typeof walkAll<Transfer>> | undefined) {
  const nickname = await profileNicknames(rt.upstream);
  // Sent with the service's first page: a service that refuses or fails is still answered as a problem.
  let lead = (await heldUnder(rt, q)).flatMap((h) =>
    heldLegs(h)
      .filter(heldLegMatches(q))
      .map((leg) => heldTransferCsvRow(h, leg, nickname)),
  );
  if (!walk) {
    yield lead;
    return;
  }
  const debitRefByGroup = new Map<string, string>();
  let step = await walk.next();
  while (!step.done) {
    const legs = step.value;
    for (const leg of legs)
      if (leg.direction === "DEBIT" && leg.group_id) debitRefByGroup.set(leg.group_id, leg.ref_id ?? "");
    const unknownGroups = [...new Set(legs.map((l) => l.group_id ?? "").filter((g) => g && !debitRefByGroup.has(g)))];
    for (const debit of await debitsOf(rt, unknownGroups)) debitRefByGroup.set(debit.group_id!, debit.ref_id ?? "");
    const refOf = (leg: Transfer) => (leg.group_id ? debitRefByGroup.get(leg.group_id) : leg.ref_id) ?? "";
    const submitters = await journalByRefId(rt.db, "transfer", legs.map(refOf));
    yield [...lead, ...legs.map((leg) => transferCsvRow(leg, nickname, submitters.get(refOf(leg))))];
    lead = [];
    step = await walk.next();
  }
  yield step.value.truncated ? [...lead, stoppedLine(step.value.scanned, "transfer legs")] : lead;
}

/** The DEBIT legs of these groups, 100 groups a call (the service's list limit). */
async function debitsOf(rt: Runtime, groupIds: readonly string[]): Promise<Transfer[]> {
  const found: Transfer[] = [];
  for (let i = 0; i < groupIds.length; i += 100) {
    const chunk = groupIds.slice(i, i + 100);
    const page = await transferPages(rt.upstream, { group_ids: chunk })(undefined, chunk.length * 2);
    found.push(...page.items.filter((t) => t.direction === "DEBIT"));
  }
  return found;
}
