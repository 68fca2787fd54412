import { authorizeClientCredentials, clientCredentials, OAuthError } from "../oauth";
import type { SandboxRuntime } from "../runtime";
import { cappedText, json, problemResponse } from "@/lib/http";
import { problem } from "@/lib/spec";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

const oauthError = (e: OAuthError) =>
  json({ error: e.code, error_description: e.description }, e.status, {
    ...NO_STORE,
    ...(e.basicChallenge ? { "WWW-Authenticate": 'Basic realm="sandbox"' } : {}),
  });

/** POST /sandbox/oauth2/token: the client credentials grant (RFC 6749 4.4). */
export async function issueToken(request: Request, sandbox: SandboxRuntime): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    return oauthError(new OAuthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded"));
  }
  const form = new URLSearchParams(await cappedText(request));
  try {
    const credentials = clientCredentials(request.headers.get("authorization"), form);
    const wait = sandbox.limiter.take(`token:${credentials.id}`, sandbox.config.tokenRatePerSecond);
    if (wait > 0) {
      return problemResponse(
        problem(429, "Too Many Requests", "the token endpoint allows about 1 request per second: cache tokens"),
        { "Retry-After": String(wait) },
      );
    }
    const { client, scopes } = authorizeClientCredentials(sandbox.clients, credentials, form);
    const token = sandbox.tokens.issue(client, scopes);
    return json({ ...token, token_type: "bearer", scope: scopes.join(" ") }, 200, NO_STORE);
  } catch (error) {
    if (error instanceof OAuthError) return oauthError(error);
    throw error;
  }
}
