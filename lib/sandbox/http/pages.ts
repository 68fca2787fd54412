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

/**
 * One page of `items`, sorted newest first by `key` (unique, comparable as strings):
 * the cursor holds the last key sent, so a page stays right when items are added.
 */
export function page<T>(items: T[], key: (item: T) => string, limit: number, cursor: string | undefined) {
  const after = decodeCursor(cursor);
  let start = after === undefined ? 0 : items.findIndex((i) => key(i) < after);
  if (start < 0) start = items.length;
  const slice = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return { items: slice, next_page_cursor: more ? encodeCursor(key(slice[slice.length - 1]!)) : "" };
}

/** A sort key that compares as a string the way numbers compare. */
export const paddedKey = (...parts: (number | string)[]): string =>
  parts.map((p) => (typeof p === "number" ? String(p).padStart(16, "0") : p)).join(":");
