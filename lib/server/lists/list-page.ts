import "server-only";
import type { Page } from "@/lib/shared/list-routes";
import { isProblem, problem, ProblemError } from "@/lib/spec";
import {
  decodeListCursor,
  encodeListCursor,
  SCAN_CAP,
  SERVICE_MAX_LIMIT,
  sortedPage,
  walkPage,
  type FetchPage,
  type ServicePage,
  type WalkPosition,
} from "./page-walk";
import type { QueryValue, UpstreamClient } from "../upstream/client";

/**
 * A page of a service list as the dashboard's tables ask for it: the service's own filters
 * sent to the service, the others applied while the back end walks its pages, an optional
 * sort across every match, and the dashboard's own cursor.
 */

/** The service's pages of `path` under `query`; an answer other than 200 is thrown as its problem. */
export function servicePages<T>(
  upstream: UpstreamClient,
  path: string,
  query: Record<string, QueryValue>,
): FetchPage<T> {
  return async (pageCursor, limit) => {
    const res = await upstream.request({ method: "GET", path, query: { ...query, limit, page_cursor: pageCursor } });
    if (res.status === 200) return servicePage<T>(res.body, path);
    throw new ProblemError(
      isProblem(res.body) ? res.body : problem(res.status, "Service Error", `The service answered ${res.status}.`),
    );
  };
}

/**
 * A list answer of the service as a page: its `items`, and its `next_page_cursor` only when it
 * is a cursor (the last page leaves the key out; "" or null mean the same). An answer without
 * `items` is the service's fault, not the person's: a 502 that says so.
 */
export function servicePage<T>(body: unknown, path: string): ServicePage<T> {
  const page = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (!Array.isArray(page.items))
    throw new ProblemError(problem(502, "Service Error", `The service answered ${path} without a list of items.`));
  const cursor = page.next_page_cursor;
  return { items: page.items as T[], ...(typeof cursor === "string" && cursor ? { next_page_cursor: cursor } : {}) };
}

export interface ListRequest<T> {
  pages: FetchPage<T>;
  /** The filters the service does not apply; undefined when there are none. */
  matches?: (record: T) => boolean;
  /** A sort across every match; undefined keeps the service's order (a list that documents one). */
  compare?: (a: T, b: T) => number;
  limit: number;
  cursor?: string;
  /** The request's filters and sort, in a canonical form: a cursor is only good for these. */
  query: string;
}

/** The page `req` asks for, answered as GET /api/orders and GET /api/transfers do. */
export async function listPage<T>(req: ListRequest<T>): Promise<Required<Page<T>>> {
  const cursor = req.cursor === undefined ? undefined : decodeListCursor(req.cursor, req.query);
  const matches = req.matches ?? (() => true);
  const walked = Boolean(req.matches);
  if (req.compare) {
    const offset = cursor && "offset" in cursor ? cursor.offset : 0;
    const page = await sortedPage(req.pages, matches, req.compare, offset, req.limit);
    const next_cursor = page.next === null ? null : encodeListCursor({ query: req.query, offset: page.next });
    return { items: page.items, next_cursor, ...counts(page, walked) };
  }
  // Unfiltered, a page of the service is a page of the table; filtered, read the service's largest pages.
  const batch = req.matches ? SERVICE_MAX_LIMIT : req.limit;
  const from: WalkPosition = cursor && "at" in cursor ? cursor.at : { skip: 0, batch };
  const page = await walkPage(req.pages, matches, from, req.limit);
  const next_cursor = page.next === null ? null : encodeListCursor({ query: req.query, at: page.next });
  return { items: page.items, next_cursor, ...counts(page, walked) };
}

/** The page of a filter only the dashboard answers (a held request's status): nothing asked of the service, nothing read. */
export const nothingAsked = <T>(): Required<Page<T>> => ({
  items: [],
  next_cursor: null,
  ...counts({ scanned: 0, truncated: false }, false),
});

const counts = (page: { scanned: number; truncated: boolean }, walked: boolean) => ({
  scanned: page.scanned,
  walked,
  truncated: page.truncated,
  scan_cap: SCAN_CAP,
});
