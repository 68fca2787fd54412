import * as z from "zod/mini";
import { TOKEN_SCOPES, type TokenScope } from "./token-scopes";

/**
 * A personal API token as `POST /api/tokens` takes it and `GET /api/tokens` lists it (issue 28):
 * one schema for the page's form (later) and the route handler.
 */

export const TOKEN_NAME_MAX = 100;
export const TOKEN_MAX_DAYS = 90;
/** What every secret starts with, so a scanner (and the server) knows one when it sees it. */
export const TOKEN_SECRET_PREFIX = "dsk_";

export const newApiTokenSchema = z.strictObject({
  name: z
    .string({ error: (issue) => (issue.input === undefined ? "Name is required" : "Name must be text") })
    .check(
      z.trim(),
      z.minLength(1, "Name must not be empty"),
      z.maxLength(TOKEN_NAME_MAX, `Name may be at most ${TOKEN_NAME_MAX} characters`),
    ),
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { error: `Each scope must be one of ${TOKEN_SCOPES.join(", ")}` }), {
      error: (issue) =>
        issue.input === undefined
          ? `Scopes is required: a list such as ["read", "trade"]`
          : `Scopes must be a list such as ["read", "trade"]`,
    })
    .check(
      z.minLength(1, `Scopes must name at least one of ${TOKEN_SCOPES.join(", ")}`),
      z.refine((scopes) => new Set(scopes).size === scopes.length, "Scopes must not name a scope twice"),
    ),
  expires_in_days: z
    .int({
      error: (issue) =>
        issue.input === undefined
          ? `Expires in days is required: a whole number of days from 1 to ${TOKEN_MAX_DAYS}`
          : `Expires in days must be a whole number of days from 1 to ${TOKEN_MAX_DAYS}`,
    })
    .check(
      z.minimum(1, `Expires in days must be at least 1`),
      z.maximum(TOKEN_MAX_DAYS, `Expires in days may be at most ${TOKEN_MAX_DAYS}`),
    ),
});

export type NewApiToken = z.output<typeof newApiTokenSchema>;

/** A token as the API shows it; never its secret. `owner_email` in an admin's list. */
export interface ApiTokenView {
  id: string;
  name: string;
  scopes: TokenScope[];
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  owner_email?: string;
}
