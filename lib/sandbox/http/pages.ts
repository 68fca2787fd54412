import * as z from "zod";

/** limit and page_cursor, shared by the list endpoints. */
export const pageFields = {
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(1000, "limit may be at most 1000")
    .default(100),
  page_cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "page_cursor is not a cursor this service issued")
    .optional(),
};

/** Cursors are opaque to clients: base64url of the position after the last item sent. */
const encodeCursor = (position: string): string => Buffer.from(position).toString("base64url");
const decodeCursor = (cursor: string | undefined): string | undefined =>
  cursor === undefined ? undefined : Buffer.from(cursor, "base64url").toString();

/** A list page as the service sends it: the last page has no `next_page_cursor` key at all. */
export interface ListPage<T> {
  items: T[];
  next_page_cursor?: string;
}

/**
 * One page of `items`, already sorted by `key` (unique, comparable as strings) in `order`: the
 * cursor holds the last key sent, so a page stays right when items are added. As the service
 * says, "when the number of items returned is fewer than the limit, there is currently no next
 * page": a short page has no cursor, and a full one always has one, even when nothing follows
 * (the page after it is then empty, and has none).
 */
export function page<T>(
  items: T[],
  key: (item: T) => string,
  limit: number,
  cursor: string | undefined,
  order: "ASC" | "DESC" = "DESC",
): ListPage<T> {
  const after = decodeCursor(cursor);
  const beyond = (k: string) => (order === "DESC" ? k < after! : k > after!);
  let start = after === undefined ? 0 : items.findIndex((i) => beyond(key(i)));
  if (start < 0) start = items.length;
  const slice = items.slice(start, start + limit);
  return slice.length < limit ? { items: slice } : { items: slice, next_page_cursor: encodeCursor(key(slice.at(-1)!)) };
}

/** A sort key that compares as a string the way numbers compare. */
export const paddedKey = (...parts: (number | string)[]): string =>
  parts.map((p) => (typeof p === "number" ? String(p).padStart(16, "0") : p)).join(":");
