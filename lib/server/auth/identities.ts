import "server-only";
import { isUniqueViolation, type Db } from "../db";

/**
 * Who an OIDC sign-in is: the provider's issuer and `sub`, never the email as sent. The first
 * sign-in of an identity binds it to its email in lower case; that email stays the person's
 * name in the dashboard (sessions, audit, four eyes) even if the provider later sends another
 * spelling or address. Another `sub` of the same issuer cannot take an email already bound:
 * an address given to someone new does not inherit the old holder's requests and history.
 */
export type Identity = { email: string } | { refusal: string };

export const normalEmail = (email: string): string => email.trim().toLowerCase();

export async function oidcIdentity(
  db: Db,
  claims: { issuer: string; sub: string; email: string },
  now: () => Date = () => new Date(),
): Promise<Identity> {
  const email = normalEmail(claims.email);
  for (let attempt = 0; attempt < 2; attempt++) {
    const bound = await db
      .selectFrom("oidc_identities")
      .select("email")
      .where("issuer", "=", claims.issuer)
      .where("sub", "=", claims.sub)
      .executeTakeFirst();
    if (bound) return { email: bound.email };
    try {
      await db
        .insertInto("oidc_identities")
        .values({ issuer: claims.issuer, sub: claims.sub, email, bound_at: now().toISOString() })
        .execute();
      return { email };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Either this identity was bound a moment ago (read it again), or the email is another's.
      const holder = await db
        .selectFrom("oidc_identities")
        .select("sub")
        .where("issuer", "=", claims.issuer)
        .where("email", "=", email)
        .executeTakeFirst();
      if (holder && holder.sub !== claims.sub) return { refusal: "the email belongs to another identity" };
    }
  }
  return { refusal: "the identity could not be bound" };
}
