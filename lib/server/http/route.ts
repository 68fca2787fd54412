import "server-only";
import type { NextRequest } from "next/server";
import { problemResponse } from "@/lib/server/http/toolkit";
import { randomUUID } from "node:crypto";
import { can, type Action } from "@/lib/shared/roles";
import { scopeNeeded } from "@/lib/shared/token-scopes";
import { problem, ProblemError } from "@/lib/spec";
import { currentSession, type SignedInUser } from "../auth/session";
import { denialLog } from "./denials";
import { REFUSALS as TOKEN_REFUSALS, tokenCaller, type TokenUse } from "../auth/api-tokens";
import { tokenRate, type TokenRate } from "../auth/token-rate";
import { bearerOf, hasSessionCookie, misplacedSecret } from "./bearer";
import { currentRequest, inRequest, newRequestContext, noteToken, noteUser } from "./request-context";
import { log } from "../ops/log";
import { clientIp, isSameOrigin } from "./origin";
import { runtime, type Runtime } from "../runtime";
import { retryAfterHeaders, UpstreamError, upstreamProblem, type UpstreamResponse } from "../upstream/client";

export interface RouteContext<P> {
  request: NextRequest;
  params: P;
  /** Who acts: the signed-in person, or a personal API token's owner (with their role now). */
  user: SignedInUser;
  /** The id of the caller's session row (the live stream watches it end); null for a token's request. */
  sessionId: string | null;
  /** The personal API token the request acts through, or null for a session's. */
  token: TokenUse | null;
  runtime: Runtime;
  /** The caller's address, for the audit trail. */
  ip: string | null;
}

export type RouteHandler<P> = (ctx: RouteContext<P>) => Promise<Response>;

export interface RouteOptions {
  /** False for a request that is never the person's own doing (the live stream): it renews no idle timeout. */
  renews?: boolean;
  /** False for what only a session may do whatever the action (the live stream, which ends with its session). */
  byToken?: boolean;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Makes the wrapper every dashboard API handler goes through, over the runtime `getRuntime`
 * gives, then the handler; a thrown problem or upstream failure becomes its problem+json. Each
 * refused change is an `access.denied` entry in the audit trail (denials.ts coalesces a flood).
 *
 * Who calls is one of two:
 * - a staff session (its cookie): a change must come from the dashboard's own origin (403), the
 *   session must be live (401), its role must allow `action` (403);
 * - a personal API token, `Authorization: Bearer dsk_…` (lib/server/auth/api-tokens.ts): no
 *   Origin is asked (no cookie is involved); the token must be live and its owner have a role
 *   now (401); the owner's role must allow `action` and a scope of the token open it
 *   (lib/shared/token-scopes.ts; an action no scope opens is never a token's) (403); each token
 *   has its own rate (429 with Retry-After). Every audit entry of the request names the token.
 *   The handler is the same, with the owner as `user`.
 * Both at once (the session cookie and a bearer token) is a 400: one request, one caller. A
 * token's secret anywhere but `Authorization` (a query string, a cookie) is a 401, and nothing is done.
 */
export function routeWrapper(getRuntime: () => Promise<Runtime>) {
  return <P = Record<string, never>>(action: Action, handler: RouteHandler<P>, options: RouteOptions = {}) => {
    async function handle(request: NextRequest, context: { params: Promise<P> }): Promise<Response> {
      const ip = clientIp(request);
      const deny = async (user: SignedInUser | null, status: 401 | 403 | 429, reason: string, detail = {}) => {
        if (!MUTATING.has(request.method)) return;
        const path = new URL(request.url).pathname;
        // A token's refusals are its own caller's: coalesced apart from its owner's session's.
        const token = currentRequest()?.token?.id ?? "";
        denials(await getRuntime())(`${ip}|${user?.email ?? ""}|${token}|${status}|${reason}`, {
          action: "access.denied",
          actor: user && { email: user.email, role: user.role },
          ip,
          subject: `${request.method} ${path}`,
          detail: { status, reason, ...detail },
        });
      };
      try {
        const misplaced = misplacedSecret(request);
        if (misplaced) {
          await deny(null, 401, "token outside Authorization", { place: misplaced });
          return refuse(
            401,
            "Unauthorized",
            `A token is taken only in the Authorization header (Bearer), never in a ${misplaced}: nothing was done. Revoke a token that was sent this way.`,
          );
        }
        const bearer = bearerOf(request.headers);
        if (bearer !== null) {
          if (hasSessionCookie(request.headers)) {
            return refuse(
              400,
              "Bad Request",
              "Send either the session cookie or a bearer token, not both: one request has one caller.",
            );
          }
          return await byToken(request, context, bearer, ip, deny);
        }
        if (MUTATING.has(request.method) && !isSameOrigin(request)) {
          await deny(null, 403, "cross-origin", { origin: request.headers.get("origin") });
          return refuse(
            403,
            "Forbidden",
            "Changes must come from the dashboard's own pages (cross-origin request refused).",
          );
        }
        const session = await currentSession(request, getRuntime, { renews: options.renews ?? true });
        if (!session) {
          await deny(null, 401, "no session");
          return refuse(401, "Unauthorized", "Sign in to use the dashboard.");
        }
        const { user, sessionId } = session;
        if (!can(user.role, action)) {
          await deny(user, 403, "role", { action });
          return roleRefusal(user, action);
        }
        const runtime = await getRuntime();
        // Counted in flight: a shutdown lets it finish (a create until its journal entry is complete).
        const ctx = { request, params: await context.params, user, sessionId, token: null, runtime, ip };
        return await runtime.lifecycle.track(handler(ctx));
      } catch (error) {
        if (error instanceof ProblemError) return problemResponse(error.problem);
        if (error instanceof UpstreamError) {
          const p = upstreamProblem(error);
          return problemResponse(p, retryAfterHeaders(p));
        }
        log.error({ err: error }, "dashboard: request failed");
        return refuse(500, "Internal Server Error", "The dashboard failed to handle this request.");
      }
    }

    /** A request with `Authorization: Bearer …`: the token's owner, narrowed by its scopes. */
    async function byToken(
      request: NextRequest,
      context: { params: Promise<P> },
      secret: string,
      ip: string | null,
      deny: (user: SignedInUser | null, status: 401 | 403 | 429, reason: string, detail?: object) => Promise<void>,
    ): Promise<Response> {
      const runtime = await getRuntime();
      const found = await tokenCaller(runtime, secret);
      if ("refused" in found) {
        await deny(null, 401, `token ${found.refused}`);
        return refuse(401, "Unauthorized", TOKEN_REFUSALS[found.refused]);
      }
      const { user, token } = found;
      noteUser(user);
      noteToken(token);
      const wait = tokenRates(runtime).take(token.id);
      if (wait > 0) {
        const seconds = Math.max(1, Math.ceil(wait / 1000));
        await deny(user, 429, "token rate", { per_minute: runtime.config.TOKEN_RATE_PER_MINUTE });
        return problemResponse(
          problem(
            429,
            "Too Many Requests",
            `This token may make ${runtime.config.TOKEN_RATE_PER_MINUTE} requests a minute: try again in ${seconds} s.`,
            { retry_after_seconds: seconds },
          ),
          { "Retry-After": String(seconds) },
        );
      }
      if (!can(user.role, action)) {
        await deny(user, 403, "role", { action });
        return roleRefusal(user, action);
      }
      const scope = options.byToken === false ? null : scopeNeeded(action, request.method);
      if (scope === null) {
        await deny(user, 403, "never by token", { action });
        return refuse(
          403,
          "Forbidden",
          `A token never does this (${action}): approving, rejecting and withdrawing requests, the policy, the targets, sessions and tokens stay with a person signed in.`,
          { action },
        );
      }
      if (!token.scopes.includes(scope)) {
        await deny(user, 403, "scope", { action, scope });
        return refuse(403, "Forbidden", `This token lacks the ${scope} scope, which ${action} needs.`, {
          action,
          scope,
        });
      }
      const ctx = { request, params: await context.params, user, sessionId: null, token, runtime, ip };
      return await runtime.lifecycle.track(handler(ctx));
    }

    return (request: NextRequest, context: { params: Promise<P> }): Promise<Response> =>
      // Its own request context when none is (a route called in process): a token must be noted somewhere.
      inRequest(currentRequest() ?? newRequestContext(randomUUID()), () => handle(request, context));
  };
}

const roleRefusal = (user: SignedInUser, action: Action) =>
  refuse(403, "Forbidden", `The ${user.role} role may not do this (${action}).`, { role: user.role, action });

/** Each runtime's buckets of the personal API tokens' rate. */
const rates = new WeakMap<Runtime, TokenRate>();
function tokenRates(rt: Runtime): TokenRate {
  let rate = rates.get(rt);
  if (!rate) {
    rate = tokenRate(rt.config.TOKEN_RATE_PER_MINUTE, rt.clock.now);
    rates.set(rt, rate);
  }
  return rate;
}

const refuse = (status: number, title: string, detail: string, meta?: Record<string, unknown>) =>
  problemResponse(problem(status, title, detail, meta));

/** One denial log per runtime (its audit trail), so a flood is coalesced across every route. */
const logs = new WeakMap<Runtime, ReturnType<typeof denialLog>>();
function denials(rt: Runtime): ReturnType<typeof denialLog> {
  let denied = logs.get(rt);
  if (!denied) {
    denied = denialLog((event) => rt.audit.append(event));
    logs.set(rt, denied);
  }
  return denied;
}

/** `withRole("orders:create", async ({ request, params, user, runtime }) => ...)`, over the process's runtime. */
export const withRole = routeWrapper(runtime);

/**
 * The service's answer, status and body as they are: records as JSON, problems as problem+json;
 * a lockout's 503 (a create's or cancel's outcome) says when to try again in Retry-After too.
 */
export function relay(res: Pick<UpstreamResponse, "status" | "body">): Response {
  const type = res.status >= 400 ? "application/problem+json" : "application/json";
  return new Response(JSON.stringify(res.body ?? {}), {
    status: res.status,
    headers: { "Content-Type": type, ...retryAfterHeaders(res.body) },
  });
}
