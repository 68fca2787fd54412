import type { QueryValue, UpstreamRequest } from "@/lib/server/upstream/client";
import problem400 from "../fixtures/service/problem-400.json";

/**
 * A list endpoint of the service as the published reference pages it: `limit` records a page
 * (100 when not asked), the cursor an opaque position after a full page, and the last page
 * without the next_page_cursor key. `matches` is the service's own filtering of `query`.
 */
export function servicePageOf<T>(
  records: readonly T[],
  query: Readonly<Record<string, QueryValue>> = {},
  matches: (record: T) => boolean = () => true,
): { items: T[]; next_page_cursor?: string } {
  const limit = Number(query.limit ?? 100);
  const from = typeof query.page_cursor === "string" ? Number(Buffer.from(query.page_cursor, "base64url")) : 0;
  const all = records.filter(matches);
  const items = all.slice(from, from + limit);
  const end = from + items.length;
  return end < all.length ? { items, next_page_cursor: Buffer.from(String(end)).toString("base64url") } : { items };
}

/** The values of a query parameter, one or many. */
export const valuesOf = (value: QueryValue): string[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value.map(String) : [String(value)];

const ALONE = ["profile_ids", "ref_ids", "ids", "type"];
const ALLOWED_BESIDE = /^(created_at|updated_at)\.(lt|lte|eq|gte|gt)$|^(limit|page_cursor|order|order_by)$/;

/**
 * List Transfers as strict as the reference: profile_ids, ref_ids, ids and type "can be combined
 * with created_at.* or updated_at.* filtering options only" (else a 400 problem without meta, in
 * the service's words); otherwise every filter applied, newest first as given.
 */
export function listTransfersStrictly<
  T extends { profile_id: string; status: string; type: string; created_at: string },
>(records: readonly T[], request: UpstreamRequest): { status: number; body: unknown } {
  const q = Object.fromEntries(
    Object.entries(request.query ?? {}).filter(([, v]) => v !== undefined && v !== null),
  ) as Record<string, QueryValue>;
  for (const alone of ALONE.filter((k) => k in q)) {
    if (Object.keys(q).some((k) => k !== alone && !ALLOWED_BESIDE.test(k)))
      return { status: 400, body: problem400.body };
  }
  const inList = (name: string, value: string) => !(name in q) || valuesOf(q[name]).includes(value);
  const at = (t: T) => Date.parse(t.created_at);
  const gte = q["created_at.gte"] === undefined ? -Infinity : Date.parse(String(q["created_at.gte"]));
  const lt = q["created_at.lt"] === undefined ? Infinity : Date.parse(String(q["created_at.lt"]));
  const body = servicePageOf(
    records,
    q,
    (t) =>
      inList("profile_ids", t.profile_id) &&
      inList("statuses", t.status) &&
      inList("type", t.type) &&
      at(t) >= gte &&
      at(t) < lt,
  );
  return { status: 200, body };
}
