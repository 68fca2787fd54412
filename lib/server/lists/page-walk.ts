import "server-only";
import { fieldProblem } from "@/lib/server/http/toolkit";

/**
 * Walking the service's cursor pages on the back end, so that a filter the service does not
 * offer (an order's side or type, a transfer's asset), a sort across pages, or a CSV export
 * covers every record, not the page a browser happened to load. Every walk is bounded.
 */

/** One page of a service list endpoint (`GET /orders`, `GET /transfer/transfers`). */
export interface ServicePage<T> {
  items: T[];
  /** Absent on the service's last page (our sandbox once sent ""). */
  next_page_cursor?: string;
}

/** Fetches the service's page at `pageCursor` (undefined: the first), `limit` records long. */
export type FetchPage<T> = (pageCursor: string | undefined, limit: number) => Promise<ServicePage<T>>;

/**
 * The cursor of the page after `page`, or undefined when `page` is the last. The service marks
 * its last page by leaving the cursor out, and "a page shorter than the limit is the last"; an
 * empty page, or a cursor that did not move, ends a walk too, so that no answer of the service
 * can keep one asking forever. `asked` is the limit the page was asked for, `current` its cursor.
 */
export function nextCursor(page: ServicePage<unknown>, asked: number, current?: string): string | undefined {
  const cursor = page.next_page_cursor;
  if (!cursor || cursor === current || page.items.length === 0 || page.items.length < asked) return undefined;
  return cursor;
}

/** The service's largest page. */
export const SERVICE_MAX_LIMIT = 1000;
/** Records one request of a table may read from the service before it answers with what it has. */
export const SCAN_CAP = 5000;

/**
 * Where a walk resumes: the service page holding the next record (fetched again with the same
 * `batch`, it holds the same records, since the service's cursor is a position), and how many of
 * its records were already read.
 */
export interface WalkPosition {
  page?: string;
  skip: number;
  batch: number;
}

export interface WalkResult<T> {
  items: T[];
  /** Where the next page of matches starts; null when the service has no more records. */
  next: WalkPosition | null;
  /** Records read from the service for this answer. */
  scanned: number;
  /** The walk stopped at the scan cap, not because the page was full or the records ended. */
  truncated: boolean;
}

/** Up to `want` records that `matches`, from `from` on, reading at most `cap` records. */
export async function walkPage<T>(
  fetchPage: FetchPage<T>,
  matches: (record: T) => boolean,
  from: WalkPosition,
  want: number,
  cap = SCAN_CAP,
): Promise<WalkResult<T>> {
  const items: T[] = [];
  let scanned = 0;
  let at: WalkPosition = from;
  for (;;) {
    const page = await fetchPage(at.page, at.batch);
    const cursor = nextCursor(page, at.batch, at.page);
    const after = (i: number): WalkPosition | null =>
      i < page.items.length ? { ...at, skip: i } : cursor ? { page: cursor, skip: 0, batch: at.batch } : null;
    for (let i = at.skip; i < page.items.length; i++) {
      scanned++;
      if (matches(page.items[i]!)) items.push(page.items[i]!);
      if (items.length >= want) return { items, next: after(i + 1), scanned, truncated: false };
      if (scanned >= cap) {
        const next = after(i + 1);
        return { items, next, scanned, truncated: next !== null };
      }
    }
    const next = after(page.items.length);
    if (!next) return { items, next: null, scanned, truncated: false };
    at = next;
  }
}

/**
 * Every matching record, page by page as the service serves them, for a stream (a CSV export):
 * yields each page's matches; returns how many records were read and whether `cap` stopped it.
 */
export async function* walkAll<T>(
  fetchPage: FetchPage<T>,
  matches: (record: T) => boolean,
  cap: number,
  batch = SERVICE_MAX_LIMIT,
): AsyncGenerator<T[], { scanned: number; truncated: boolean }> {
  let scanned = 0;
  let cursor: string | undefined;
  for (;;) {
    const asked = Math.min(batch, cap - scanned);
    const page = await fetchPage(cursor, asked);
    scanned += page.items.length;
    yield page.items.filter(matches);
    const next = nextCursor(page, asked, cursor);
    if (!next) return { scanned, truncated: false };
    if (scanned >= cap) return { scanned, truncated: true };
    cursor = next;
  }
}

/**
 * A page of every match sorted by `compare`: all matches up to `cap` records read are
 * collected and sorted, then the page at `offset` is cut out. Bounded, so a sort of a long
 * history covers its newest `cap` records, and says so (`truncated`).
 */
export async function sortedPage<T>(
  fetchPage: FetchPage<T>,
  matches: (record: T) => boolean,
  compare: (a: T, b: T) => number,
  offset: number,
  want: number,
  cap = SCAN_CAP,
): Promise<{ items: T[]; next: number | null; scanned: number; truncated: boolean }> {
  const all: T[] = [];
  const walk = walkAll(fetchPage, matches, cap);
  let step = await walk.next();
  while (!step.done) {
    all.push(...step.value);
    step = await walk.next();
  }
  all.sort(compare);
  const end = offset + want;
  return {
    items: all.slice(offset, end),
    next: end < all.length ? end : null,
    scanned: step.value.scanned,
    truncated: step.value.truncated,
  };
}

/**
 * The dashboard's own cursor over a walk: where it resumes (or the offset in a sorted list),
 * tied to the query that issued it, since a position means nothing under other filters.
 */
export type ListCursor = { query: string } & ({ at: WalkPosition } | { offset: number });

export const encodeListCursor = (cursor: ListCursor): string =>
  Buffer.from(JSON.stringify(cursor)).toString("base64url");

/** The cursor, or a 400 naming `cursor` when it is not one of ours or belongs to other filters. */
export function decodeListCursor(text: string, query: string): ListCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    // answered below
  }
  if (isListCursor(value)) {
    if (value.query === query) return value;
    throw fieldProblem("cursor", "The cursor belongs to other filters; start again from the first page");
  }
  throw fieldProblem("cursor", "The cursor is not valid; start again from the first page");
}

const isCount = (v: unknown, min: number): v is number => Number.isSafeInteger(v) && (v as number) >= min;

function isListCursor(v: unknown): v is ListCursor {
  if (typeof v !== "object" || v === null) return false;
  const c = v as Record<string, unknown>;
  if (typeof c.query !== "string") return false;
  if ("offset" in c) return isCount(c.offset, 0);
  const at = c.at as Record<string, unknown> | undefined;
  return (
    typeof at === "object" &&
    at !== null &&
    (at.page === undefined || typeof at.page === "string") &&
    isCount(at.skip, 0) &&
    isCount(at.batch, 1) &&
    (at.batch as number) <= SERVICE_MAX_LIMIT
  );
}
