import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { SCOPES, type Scope } from "@/lib/spec/operations";

export interface Client {
  id: string;
  secret: string;
  customerId: string;
  scopes: readonly Scope[];
}

export interface TokenClaims {
  clientId: string;
  customerId: string;
  scopes: Scope[];
  /** Expiry, unix ms. */
  exp: number;
}

/** An OAuth error of RFC 6749 section 5.2 (token endpoint). */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly code: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope",
    readonly description: string,
    readonly basicChallenge = false,
  ) {
    super(description);
  }
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString("base64url");

/**
 * Access tokens are self-contained and signed with a key kept in the sandbox's store,
 * so they stay valid across a restart until they expire, like the real service's.
 */
export class TokenIssuer {
  constructor(
    private readonly key: Buffer,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  static newKey(): string {
    return randomBytes(32).toString("hex");
  }

  issue(client: Client, scopes: Scope[]): { access_token: string; expires_in: number } {
    const claims: TokenClaims = {
      clientId: client.id,
      customerId: client.customerId,
      scopes,
      exp: this.now() + this.ttlSeconds * 1000,
    };
    const body = b64(JSON.stringify(claims));
    return { access_token: `${body}.${this.sign(body)}`, expires_in: this.ttlSeconds };
  }

  private sign(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }

  /** The token's claims, or why it is refused. */
  verify(token: string): TokenClaims | "invalid" | "expired" {
    const [body, signature, extra] = token.split(".");
    if (!body || !signature || extra !== undefined) return "invalid";
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
    const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as TokenClaims;
    return claims.exp <= this.now() ? "expired" : claims;
  }
}

/** RFC 6749 2.3.1 form-encodes both halves of Basic; a broken %-escape is the client's error, not ours. */
function unescape(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    throw new OAuthError(401, "invalid_client", "malformed Basic credentials (a broken %-escape)", true);
  }
}

/** Reads client credentials from HTTP Basic or the form body (never both, RFC 6749 2.3.1). */
export function clientCredentials(
  authorization: string | null,
  form: URLSearchParams,
): { id: string; secret: string; basic: boolean } {
  const inBody = form.has("client_id") || form.has("client_secret");
  if (authorization?.toLowerCase().startsWith("basic ")) {
    if (inBody) throw new OAuthError(400, "invalid_request", "use one client authentication method, not two");
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString();
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthError(401, "invalid_client", "malformed Basic credentials", true);
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)), basic: true };
  }
  const id = form.get("client_id");
  if (!id) throw new OAuthError(401, "invalid_client", "client authentication is required");
  return { id, secret: form.get("client_secret") ?? "", basic: false };
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Checks the client and the grant; returns the scopes to grant. */
export function authorizeClientCredentials(
  clients: ReadonlyMap<string, Client>,
  credentials: { id: string; secret: string; basic: boolean },
  form: URLSearchParams,
): { client: Client; scopes: Scope[] } {
  const client = clients.get(credentials.id);
  if (!client || !safeEqual(client.secret, credentials.secret)) {
    throw new OAuthError(401, "invalid_client", "unknown client or wrong secret", credentials.basic);
  }
  const grant = form.get("grant_type");
  if (!grant) throw new OAuthError(400, "invalid_request", "grant_type is required");
  if (grant !== "client_credentials") {
    throw new OAuthError(400, "unsupported_grant_type", `grant_type ${grant} is not supported; use client_credentials`);
  }
  const asked = (form.get("scope") ?? "").split(" ").filter(Boolean);
  if (asked.length === 0) return { client, scopes: [...client.scopes] };
  const refused = asked.filter((s) => !(client.scopes as readonly string[]).includes(s));
  if (refused.length > 0) {
    const unknown = refused.filter((s) => !(SCOPES as readonly string[]).includes(s));
    const why = unknown.length > 0 ? `unknown scope ${unknown.join(" ")}` : `scope ${refused.join(" ")} not allowed`;
    throw new OAuthError(400, "invalid_scope", why);
  }
  return { client, scopes: [...new Set(asked)] as Scope[] };
}
