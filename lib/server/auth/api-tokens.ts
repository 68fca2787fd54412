import "server-only";
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { newApiTokenSchema, TOKEN_SECRET_PREFIX, type ApiTokenView } from "@/lib/shared/api-tokens";
import { isTokenScope, scopeUsableBy, type TokenScope } from "@/lib/shared/token-scopes";
import { problem, ProblemError, type FieldError } from "@/lib/spec";
import {
  apiTokenByHash,
  apiTokenById,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  touchApiToken,
  type ApiTokenRow,
} from "../db/api-tokens";
import { parseOr400 } from "../http/toolkit";
import type { Runtime } from "../runtime";
import type { SignedInUser } from "./session";
import { latestRole } from "./sessions";

/**
 * Personal API tokens (issue 28): a person makes one in a session, names it, picks its scopes
 * and its life (at most 90 days), and sees its secret once. A script sending
 * `Authorization: Bearer dsk_…` then acts as that person, with their role as it is now, narrowed
 * by the scopes (lib/shared/token-scopes.ts), through the same route wrapper and handlers as the
 * browser (lib/server/http/route.ts).
 *
 * The secret is 32 random bytes: it is kept only as its SHA-256. A slow hash (scrypt, bcrypt)
 * protects secrets people choose, which are few enough to guess; 256 random bits cannot be
 * guessed, so one fast hash suffices, and a request is found by it with one indexed read.
 */

/** A token's last use is written at most this often. */
export const LAST_USED_EVERY_MS = 60_000;

const SECRET = /^dsk_[A-Za-z0-9_-]{43}$/;

export const newSecret = (): string => TOKEN_SECRET_PREFIX + randomBytes(32).toString("base64url");

export const secretHash = (secret: string): string => createHash("sha256").update(secret).digest("hex");

const scopesOf = (row: ApiTokenRow): TokenScope[] => {
  const parsed: unknown = JSON.parse(row.scopes_json);
  return Array.isArray(parsed) ? parsed.filter(isTokenScope) : [];
};

const viewOf = (row: ApiTokenRow, withOwner = false): ApiTokenView => ({
  id: row.id,
  name: row.name,
  scopes: scopesOf(row),
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
  revoked_at: row.revoked_at,
  ...(withOwner ? { owner_email: row.owner_email } : {}),
});

/**
 * `POST /api/tokens`: a new token of `user`'s, and its secret (shown this once). A 400 names each
 * refused field, and a scope the person's role could not use anyway.
 */
export async function createApiToken(
  rt: Runtime,
  user: SignedInUser,
  input: unknown,
  ip: string | null,
): Promise<{ token: ApiTokenView; secret: string }> {
  const asked = parseOr400(newApiTokenSchema, input);
  const useless: FieldError[] = asked.scopes.flatMap((scope, i) =>
    scopeUsableBy(user.role, scope)
      ? []
      : [{ field: `scopes.${i}`, message: `The ${user.role} role cannot use the ${scope} scope` }],
  );
  if (useless.length > 0) {
    throw new ProblemError(
      problem(400, "Bad Request", useless.map((e) => `${e.field}: ${e.message}`).join("; "), { errors: useless }),
    );
  }
  const secret = newSecret();
  const at = new Date(rt.clock.now());
  const row: ApiTokenRow = {
    id: randomUUID(),
    owner_email: user.email,
    owner_name: user.name,
    name: asked.name,
    scopes_json: JSON.stringify(asked.scopes),
    secret_hash: secretHash(secret),
    created_at: at.toISOString(),
    expires_at: new Date(at.getTime() + asked.expires_in_days * 86_400_000).toISOString(),
    last_used_at: null,
    revoked_at: null,
    revoked_by: null,
  };
  await insertApiToken(rt.db, row);
  const token = viewOf(row);
  await rt.audit.append({
    action: "token.created",
    actor: user,
    ip,
    subject: row.id,
    detail: { name: token.name, scopes: token.scopes, expires_at: token.expires_at },
  });
  return { token, secret };
}

/** `GET /api/tokens`: one's own tokens, newest first; an admin's list is everyone's, with their owners. */
export async function listApiTokensOf(rt: Runtime, user: SignedInUser): Promise<ApiTokenView[]> {
  const admin = user.role === "admin";
  const rows = await listApiTokens(rt.db, admin ? null : user.email);
  return rows.map((row) => viewOf(row, admin));
}

/**
 * `DELETE /api/tokens/{id}`: revokes one's own token, or anyone's for an admin; another's is a
 * 404 to anyone else (whether it exists is not theirs to learn). Revoking a revoked token again
 * answers it as it is, and writes nothing.
 */
export async function revokeApiTokenOf(
  rt: Runtime,
  user: SignedInUser,
  id: string,
  ip: string | null,
): Promise<ApiTokenView> {
  const row = await apiTokenById(rt.db, id);
  if (!row || (row.owner_email !== user.email && user.role !== "admin")) {
    throw new ProblemError(problem(404, "Not Found", `There is no token ${id} of yours.`));
  }
  const at = new Date(rt.clock.now());
  if (await revokeApiToken(rt.db, id, user.email, at)) {
    await rt.audit.append({
      action: "token.revoked",
      actor: user,
      ip,
      subject: id,
      detail: { name: row.name, owner_email: row.owner_email },
    });
  }
  const now = await apiTokenById(rt.db, id);
  return viewOf(now ?? row, user.role === "admin");
}

/** The token a request acts through: what its audit entries and refusals name. */
export interface TokenUse {
  id: string;
  name: string;
  scopes: TokenScope[];
}

/** Why a bearer token was refused (a 401): in words for its holder, who has the secret anyway. */
export type TokenRefusal = "unknown" | "revoked" | "expired" | "no role";

/**
 * Who a bearer secret acts as: the token's owner with their role now (their newest sign-in's),
 * or why not. A live token's last use is written at most once a minute.
 */
export async function tokenCaller(
  rt: Runtime,
  secret: string,
): Promise<{ user: SignedInUser; token: TokenUse } | { refused: TokenRefusal }> {
  if (!SECRET.test(secret)) return { refused: "unknown" };
  const hash = secretHash(secret);
  // Found by an index on the hash: how long that takes says something of the hash, never of a
  // secret that would give it (SHA-256 has no known preimage). The stored hash is compared again
  // in constant time all the same.
  const row = await apiTokenByHash(rt.db, hash);
  if (!row || !timingSafeEqual(Buffer.from(row.secret_hash, "hex"), Buffer.from(hash, "hex"))) {
    return { refused: "unknown" };
  }
  const now = rt.clock.now();
  if (row.revoked_at !== null) return { refused: "revoked" };
  if (Date.parse(row.expires_at) <= now) return { refused: "expired" };
  const role = await latestRole(rt.db, row.owner_email);
  if (!role) return { refused: "no role" };
  if (row.last_used_at === null || now - Date.parse(row.last_used_at) >= LAST_USED_EVERY_MS) {
    await touchApiToken(rt.db, row.id, new Date(now), new Date(now - LAST_USED_EVERY_MS));
  }
  return {
    user: { email: row.owner_email, name: row.owner_name, role },
    token: { id: row.id, name: row.name, scopes: scopesOf(row) },
  };
}

/** The 401's detail for each refusal. */
export const REFUSALS: Record<TokenRefusal, string> = {
  unknown: "The bearer token is not a token of this dashboard's.",
  revoked: "The bearer token was revoked.",
  expired: "The bearer token has expired.",
  "no role": "The bearer token's owner has no role here now.",
};
