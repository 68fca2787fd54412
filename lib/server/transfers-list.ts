import "server-only";
import * as z from "zod";
import { TRANSFER_CSV_HEADER, transferCsvRow } from "@/lib/client/transfer-rows";
import { parseOr400, queryOf } from "@/lib/http";
import { transferCompare, TRANSFER_SORTS } from "@/lib/lists";
import { ASSETS, identifier, transferStatusSchema, transferTypeSchema, type Transfer } from "@/lib/spec";
import { EXPORT_SCAN_CAP, stoppedLine, type CsvRows } from "./csv-response";
import { listPage, servicePages } from "./list-page";
import { walkAll } from "./page-walk";
import { journalByRefId, profileNicknames } from "./record-names";
import { instantParam, limitParam } from "./list-query";
import type { Runtime } from "./runtime";

/**
 * The service's transfers (`GET /transfer/transfers`), one record per leg, for the transfers
 * table and its CSV: profile_ids, statuses, type and the created_at range are the service's
 * own filters and go to it; asset is not, and is applied while the back end walks its pages.
 */

const filters = {
  profile_ids: z.array(identifier("profile_ids")).max(100, "profile_ids may list at most 100 ids").optional(),
  statuses: z.array(transferStatusSchema).optional(),
  type: z.optional(transferTypeSchema),
  asset: z.enum(ASSETS as [string, ...string[]], { error: `asset must be one of ${ASSETS.join(", ")}` }).optional(),
  /** Created at or after. */
  from: instantParam("from"),
  /** Created before. */
  to: instantParam("to"),
};
const SCALARS = ["type", "asset", "from", "to"];
const ARRAYS = ["profile_ids", "statuses"];

export const MAX_TRANSFERS_PAGE = 200;

const listQuery = z
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

type TransferFilters = z.output<z.ZodObject<typeof filters>>;

const serviceQuery = (q: TransferFilters) => ({
  profile_ids: q.profile_ids,
  statuses: q.statuses,
  type: q.type,
  "created_at.gte": q.from,
  "created_at.lt": q.to,
});

const localMatch = (q: TransferFilters): ((t: Transfer) => boolean) | undefined =>
  q.asset ? (t) => t.asset === q.asset : undefined;

/** GET /api/transfers: one page of the matching legs, newest first or by amount within one asset. */
export async function listTransfers(rt: Runtime, url: URL) {
  const q = parseOr400(listQuery, queryOf(url, [...SCALARS, "sort", "dir", "limit", "cursor"], ARRAYS));
  const { limit, cursor, ...rest } = q;
  return listPage<Transfer>({
    pages: servicePages(rt.upstream, "/transfer/transfers", serviceQuery(q)),
    matches: localMatch(q),
    compare: q.sort ? transferCompare(q.sort, q.dir) : undefined,
    limit,
    cursor,
    query: JSON.stringify(rest),
  });
}

/** GET /api/transfers/export.csv: every matching leg, newest first, as CSV rows a page at a time. */
export function exportTransfers(rt: Runtime, url: URL): { header: string[]; rows: CsvRows } {
  const q = parseOr400(z.object(filters), queryOf(url, SCALARS, ARRAYS));
  const pages = servicePages<Transfer>(rt.upstream, "/transfer/transfers", serviceQuery(q));
  const walk = walkAll(pages, localMatch(q) ?? (() => true), EXPORT_SCAN_CAP);
  return { header: TRANSFER_CSV_HEADER, rows: transferRows(rt, walk) };
}

/**
 * Rows of each page of legs. Who initiated a transfer is known from its DEBIT leg's ref_id;
 * a CREDIT whose DEBIT is not among the legs read (another profile, or the page before) is
 * matched to it through the service's group_ids filter, as the table does.
 */
async function* transferRows(rt: Runtime, walk: ReturnType<typeof walkAll<Transfer>>) {
  const nickname = await profileNicknames(rt.upstream);
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
    yield legs.map((leg) => transferCsvRow(leg, nickname, submitters.get(refOf(leg))));
    step = await walk.next();
  }
  if (step.value.truncated) yield [stoppedLine(step.value.scanned, "transfer legs")];
}

/** The DEBIT legs of these groups, 100 groups a call (the service's list limit). */
async function debitsOf(rt: Runtime, groupIds: readonly string[]): Promise<Transfer[]> {
  const found: Transfer[] = [];
  for (let i = 0; i < groupIds.length; i += 100) {
    const chunk = groupIds.slice(i, i + 100);
    const page = await servicePages<Transfer>(rt.upstream, "/transfer/transfers", { group_ids: chunk })(
      undefined,
      chunk.length * 2,
    );
    found.push(...page.items.filter((t) => t.direction === "DEBIT"));
  }
  return found;
}
