import "server-only";
import * as z from "zod";

/**
 * Query parameters every list route and its CSV take alike, so a rule and its words are the
 * same on the orders, transfers, activity and audit routes.
 */

/** An instant with its offset (`from`, `to`); compared as stored, in UTC, when `utc` is set. */
export const instantParam = (name: string, { utc = false } = {}) => {
  const instant = z.iso.datetime({
    offset: true,
    error: `${name} must be an ISO 8601 time with its offset, e.g. 2026-11-23T00:00:00Z`,
  });
  return (utc ? instant.transform((v) => new Date(v).toISOString()) : instant).optional();
};

/** The page size a list route takes, 1 to `max`. */
export const limitParam = (max: number) =>
  z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(max, `limit may be at most ${max}`);

/** Any part of a user's email, in any case. */
export const userParam = z.string().max(320, "user may be at most 320 characters").optional();
