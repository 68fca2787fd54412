import * as z from "zod";
import { problem, ProblemError, transferStatusSchema, transferTypeSchema } from "@/lib/spec";
import { parseOr400, queryOf } from "@/lib/server/http/toolkit";
import type { EngineTransfer } from "../engine/types";
import { pageFields } from "./pages";

/**
 * List Transfers' query as the service takes it: every filter, the timestamp bounds, the
 * ordering and paging, and the combinations the service refuses.
 */

/** The service's timestamp bounds on created_at and updated_at: RFC 3339 times, each optional. */
const BOUNDS = ["lt", "lte", "eq", "gte", "gt"] as const;
type Bound = (typeof BOUNDS)[number];
const TIMESTAMPS = ["created_at", "updated_at"] as const;
type Timestamp = (typeof TIMESTAMPS)[number];
const TIME_FILTERS = TIMESTAMPS.flatMap((field) => BOUNDS.map((bound) => `${field}.${bound}`));
const timeFields = Object.fromEntries(
  TIME_FILTERS.map((name) => [
    name,
    z.iso.datetime({ offset: true, error: `${name} must be an RFC 3339 time` }).optional(),
  ]),
);

const holds: Record<Bound, (at: number, bound: number) => boolean> = {
  lt: (at, b) => at < b,
  lte: (at, b) => at <= b,
  eq: (at, b) => at === b,
  gte: (at, b) => at >= b,
  gt: (at, b) => at > b,
};

function withinTimes(q: Record<string, unknown>, times: Record<Timestamp, number>): boolean {
  return TIMESTAMPS.every((field) =>
    BOUNDS.every((bound) => {
      const value = q[`${field}.${bound}`];
      return typeof value !== "string" || holds[bound](times[field], Date.parse(value));
    }),
  );
}

const ids = (name: string) => z.array(z.string()).max(100, `${name} may list at most 100 ids`).optional();
const listTransfersQuery = z.strictObject({
  profile_ids: ids("profile_ids"),
  identity_ids: ids("identity_ids"),
  ref_ids: ids("ref_ids"),
  account_ids: ids("account_ids"),
  ids: ids("ids"),
  type: z.array(transferTypeSchema).optional(),
  group_ids: ids("group_ids"),
  crypto_tx_hashes: ids("crypto_tx_hashes"),
  secondary_statuses: z
    .array(
      z.enum(["TRAVEL_RULE_INFO_REQUESTED", "TRAVEL_RULE_REJECTED", "CUSTOMER_REJECTED", "PENDING_CUSTOMER_APPROVAL"], {
        error: "secondary_statuses must each be a secondary status",
      }),
    )
    .optional(),
  statuses: z.array(transferStatusSchema).optional(),
  ...timeFields,
  order: z.enum(["ASC", "DESC"], { error: "order must be ASC or DESC" }).optional(),
  order_by: z.enum(["CREATED_AT", "UPDATED_AT"], { error: "order_by must be CREATED_AT or UPDATED_AT" }).optional(),
  ...pageFields,
});
const ARRAYS = [
  "profile_ids",
  "identity_ids",
  "ref_ids",
  "account_ids",
  "ids",
  "type",
  "group_ids",
  "crypto_tx_hashes",
  "secondary_statuses",
  "statuses",
];
const SCALARS = [...TIME_FILTERS, "order", "order_by", "limit", "page_cursor"];

/**
 * Filters the service combines with created_at.* or updated_at.* bounds only: each may come
 * with time bounds (and paging), but with no other filter, nor each other.
 */
const TIME_ONLY_FILTERS = ["profile_ids", "identity_ids", "ref_ids", "account_ids", "ids", "type"];
const NOT_FILTERS = new Set(["order", "order_by", "limit", "page_cursor"]);

/** The service's 400 (without `meta`, as the service's Bad Request is) for filters it cannot combine. */
function checkCombinations(sent: string[]): void {
  const filters = sent.filter((k) => !NOT_FILTERS.has(k) && !TIME_FILTERS.includes(k));
  for (const only of TIME_ONLY_FILTERS) {
    const others = filters.filter((k) => k !== only);
    if (filters.includes(only) && others.length > 0) {
      throw new ProblemError(
        problem(
          400,
          "Bad Request",
          `${only} invalid: can be combined with created_at.* or updated_at.* filtering options only, not with ${others.join(", ")}`,
        ),
      );
    }
  }
}

/** "When specifying both order_by and a timestamp filter, order_by must equal the timestamp filter type." */
function checkOrderBy(sent: string[], orderBy: string | undefined): void {
  if (!orderBy) return;
  const clash = sent.find((k) => TIME_FILTERS.includes(k) && !k.startsWith(`${orderBy.toLowerCase()}.`));
  if (!clash) return;
  throw new ProblemError(
    problem(
      400,
      "Bad Request",
      `order_by invalid: when specifying both order_by and a timestamp filter, order_by must equal the timestamp filter type (${orderBy} with ${clash})`,
    ),
  );
}

/** The query of GET /v2/transfer/transfers, checked: a 400 names a bad parameter or a refused combination. */
export function readListTransfersQuery(url: URL): ListTransfersQuery {
  const q = parseOr400(listTransfersQuery, queryOf(url, SCALARS, ARRAYS));
  const sent = [...new Set(url.searchParams.keys())];
  checkCombinations(sent);
  checkOrderBy(sent, q.order_by);
  return q;
}

export type ListTransfersQuery = z.output<typeof listTransfersQuery>;

const within = (list: string[] | undefined, value: string | undefined) =>
  !list || (value !== undefined && list.includes(value));

/** Whether a transfer leg passes every filter of the query. */
export const transferMatches =
  (q: ListTransfersQuery) =>
  (t: EngineTransfer): boolean =>
    within(q.profile_ids, t.profileId) &&
    within(q.identity_ids, t.identityId) &&
    within(q.ref_ids, t.refId) &&
    within(q.account_ids, t.accountId) &&
    within(q.ids, t.id) &&
    within(q.type, t.type) &&
    within(q.group_ids, t.groupId) &&
    // No sandbox transfer is on chain or has a secondary status.
    within(q.crypto_tx_hashes, undefined) &&
    within(q.secondary_statuses, undefined) &&
    within(q.statuses, t.status) &&
    withinTimes(q, { created_at: t.createdAt, updated_at: t.updatedAt });
