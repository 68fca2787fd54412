import type { TokenClaims } from "../oauth";
import type { SandboxRuntime } from "../runtime";
import { methodNotAllowed, problemResponse } from "@/lib/server/http/toolkit";
import { OPERATIONS, pathPattern, problem, ProblemError, type Operation, type OperationId } from "@/lib/spec";
import type { Handler } from "./context";
import { getOrderBook, getTicker, listMarkets, listRecentExecutions } from "./markets";
import { cancelOrder, createOrder, getOrder, listOrders } from "./orders";
import { createSandboxDeposit, listBalances, listProfiles } from "./profiles";
import { issueToken } from "./token";
import { tooManyRequests } from "./too-many";
import { createInternalTransfer, getTransfer, listTransfers } from "./transfers";

/** The handler of each of the service's operations; method, path, scope and rate limit are the operation's. */
export const HANDLERS: Record<OperationId, Handler> = {
  listProfiles,
  listBalances,
  createOrder,
  getOrder,
  cancelOrder,
  listOrders,
  createInternalTransfer,
  listTransfers,
  getTransfer,
  createSandboxDeposit,
  listMarkets,
  getOrderBook,
  getTicker,
  listRecentExecutions,
};

interface Route extends Operation {
  pattern: RegExp;
  handler: Handler;
}

const ROUTES: Route[] = (Object.entries(HANDLERS) as [OperationId, Handler][]).map(([id, handler]) => ({
  ...OPERATIONS[id],
  pattern: pathPattern(OPERATIONS[id].path, "/v2"),
  handler,
}));

/**
 * RFC 6750 in the service's manner: who is calling, or a 401 problem that says why not. The
 * service sends no WWW-Authenticate challenge, so none is sent here either: a client must not
 * depend on one to tell an expired token from a revoked one.
 */
function authenticate(request: Request, sandbox: SandboxRuntime): TokenClaims | Response {
  const header = request.headers.get("authorization");
  if (!header?.toLowerCase().startsWith("bearer ")) {
    return problemResponse(problem(401, "Unauthorized", "a Bearer access token is required"));
  }
  const claims = sandbox.tokens.verify(header.slice(7).trim());
  if (typeof claims === "string") {
    const description = claims === "expired" ? "the access token expired" : "the access token is not valid";
    return problemResponse(problem(401, "Unauthorized", description));
  }
  return claims;
}

function decodedParams(match: RegExpExecArray): Record<string, string> | null {
  try {
    return Object.fromEntries(Object.entries(match.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
  } catch {
    return null;
  }
}

/** Serves one request to the sandbox; `path` is what follows `/sandbox`; `ip` the caller's address when known. */
export async function handleSandboxRequest(
  request: Request,
  path: string,
  sandbox: SandboxRuntime,
  ip: string | null = null,
): Promise<Response> {
  if (path === "/oauth2/token") {
    if (request.method !== "POST") return methodNotAllowed("POST");
    return issueToken(request, sandbox, ip);
  }
  const candidates = ROUTES.map((r) => ({ route: r, match: r.pattern.exec(path) })).filter((c) => c.match);
  if (candidates.length === 0) {
    return problemResponse(problem(404, "Not Found", `no such endpoint: ${request.method} /sandbox${path}`));
  }
  const hit = candidates.find((c) => c.route.method === request.method);
  if (!hit) return methodNotAllowed(...candidates.map((c) => c.route.method));
  const params = decodedParams(hit.match!);
  if (!params) return problemResponse(problem(400, "Bad Request", "the path is not validly percent-encoded"));
  return dispatch(hit.route, request, params, sandbox, ip);
}

async function dispatch(
  route: Route,
  request: Request,
  params: Record<string, string>,
  sandbox: SandboxRuntime,
  ip: string | null,
) {
  const { config, limiter } = sandbox;
  const rate = {
    api: config.apiRatePerSecond,
    transfer: config.transferRatePerSecond,
    "order-book": config.orderBookRatePerSecond,
  }[route.rateClass];
  // Before (or without) authentication the caller is its address: a bad token spends no client's budget.
  const anonymous = `ip:${ip ?? "unknown"}`;
  let caller: TokenClaims = { clientId: "public", customerId: "", scopes: [], exp: 0 };
  const auth = route.scope || request.headers.has("authorization") ? authenticate(request, sandbox) : undefined;
  if (auth === undefined || auth instanceof Response) {
    const refusal = limiter.take(anonymous, route.rateClass, rate);
    if (refusal) return tooManyRequests(refusal, rate);
    // Public market data needs no token: a bad one is ignored there.
    if (route.scope) return auth!;
  } else {
    const refusal = limiter.take(`client:${auth.clientId}`, route.rateClass, rate);
    if (refusal) return tooManyRequests(refusal, rate);
    caller = auth;
  }
  if (route.scope) {
    if (!caller.scopes.includes(route.scope)) {
      const detail = `this operation needs the scope ${route.scope}`;
      return problemResponse(problem(403, "Forbidden", detail, { required_scope: route.scope }));
    }
  }
  try {
    return await route.handler({ request, url: new URL(request.url), params, caller, sandbox });
  } catch (error) {
    if (error instanceof ProblemError) return problemResponse(error.problem);
    throw error;
  }
}
