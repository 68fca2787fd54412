import "server-only";
import type { Kysely, Selectable } from "kysely";
import type { ApiTokenTable, Database } from "./schema";

/**
 * Personal API tokens (table `api_tokens`, migration 0013): every query on it. What a token means
 * (its secret, its scopes, who may see and revoke it) is lib/server/auth/api-tokens.ts's. No HTTP here.
 */

export type ApiTokenRow = Selectable<ApiTokenTable>;

export async function insertApiToken(db: Kysely<Database>, row: ApiTokenRow): Promise<void> {
  await db.insertInto("api_tokens").values(row).execute();
}

/** The token whose secret hashes to `secretHash` (revoked and expired ones too), or undefined. */
export const apiTokenByHash = (db: Kysely<Database>, secretHash: string): Promise<ApiTokenRow | undefined> =>
  db.selectFrom("api_tokens").selectAll().where("secret_hash", "=", secretHash).executeTakeFirst();

export const apiTokenById = (db: Kysely<Database>, id: string): Promise<ApiTokenRow | undefined> =>
  db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirst();

/** `owner`'s tokens, or everyone's when `owner` is null; newest first. */
export function listApiTokens(db: Kysely<Database>, owner: string | null): Promise<ApiTokenRow[]> {
  let query = db.selectFrom("api_tokens").selectAll();
  if (owner !== null) query = query.where("owner_email", "=", owner);
  return query.orderBy("created_at", "desc").orderBy("id").limit(1000).execute();
}

/** Marks the token revoked by `by` at `at`, unless it already was: whether this call revoked it. */
export async function revokeApiToken(db: Kysely<Database>, id: string, by: string, at: Date): Promise<boolean> {
  const done = await db
    .updateTable("api_tokens")
    .set({ revoked_at: at.toISOString(), revoked_by: by })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** Sets last_used_at to `at` unless it is already later than `since` (one write a minute, whoever races). */
export async function touchApiToken(db: Kysely<Database>, id: string, at: Date, since: Date): Promise<void> {
  await db
    .updateTable("api_tokens")
    .set({ last_used_at: at.toISOString() })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", since.toISOString())]))
    .execute();
}
