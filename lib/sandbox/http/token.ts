import { authorizeClientCredentials, clientCredentials, OAuthError } from "../oauth";
import type { SandboxRuntime } from "../runtime";
import { tooManyRequests } from "./too-many";
import { cappedText, json } from "@/lib/server/http/toolkit";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

const oauthError = (e: OAuthError) =>
  json({ error: e.code, error_description: e.description }, e.status, {
    ...NO_STORE,
    ...(e.basicChallenge ? { "WWW-Authenticate": 'Basic realm="sandbox"' } : {}),
  });

/**
 * POST /sandbox/oauth2/token: the client credentials grant (RFC 6749 4.4). Only a granted request
 * counts against the client's budget; a refused one counts against the caller's address, so
 * nobody drains a client's budget by naming it. As at the service ("exceeding a limit throttles
 * the caller for minutes"), a 429 here starts the caller's lockout too, and has no Retry-After.
 */
export async function issueToken(
  request: Request,
  sandbox: SandboxRuntime,
  ip: string | null = null,
): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    return oauthError(new OAuthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded"));
  }
  const form = new URLSearchParams(await cappedText(request));
  const rate = sandbox.config.tokenRatePerSecond;
  const limited = (caller: string) => {
    const refusal = sandbox.limiter.take(caller, "token", rate);
    return refusal && tooManyRequests(refusal, rate);
  };
  try {
    const credentials = clientCredentials(request.headers.get("authorization"), form);
    const { client, scopes } = authorizeClientCredentials(sandbox.clients, credentials, form);
    const refused = limited(`client:${client.id}`);
    if (refused) return refused;
    const token = sandbox.tokens.issue(client, scopes);
    return json({ ...token, token_type: "bearer", scope: scopes.join(" ") }, 200, NO_STORE);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return limited(`ip:${ip ?? "unknown"}`) ?? oauthError(error);
  }
}
