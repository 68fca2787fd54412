import "server-only";
import type { NextRequest } from "next/server";
import { problemResponse } from "@/lib/server/http/toolkit";
import { can, type Action } from "@/lib/shared/roles";
import { problem, ProblemError } from "@/lib/spec";
import { currentSession, type SignedInUser } from "../auth/session";
import { denialLog } from "./denials";
import { log } from "../ops/log";
import { clientIp, isSameOrigin } from "./origin";
import { runtime, type Runtime } from "../runtime";
import { retryAfterHeaders, UpstreamError, upstreamProblem, type UpstreamResponse } from "../upstream/client";

export interface RouteContext<P> {
  request: NextRequest;
  params: P;
  user: SignedInUser;
  /** The id of the caller's session row (the live stream watches it end). */
  sessionId: string;
  runtime: Runtime;
  /** The caller's address, for the audit trail. */
  ip: string | null;
}

export type RouteHandler<P> = (ctx: RouteContext<P>) => Promise<Response>;

export interface RouteOptions {
  /** False for a request that is never the person's own doing (the live stream): it renews no idle timeout. */
  renews?: boolean;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Makes the wrapper every dashboard API handler goes through, over the runtime `getRuntime`
 * gives: a same-origin check for changes (403), a staff session (401), the role for `action`
 * (403), then the handler; a thrown problem or upstream failure becomes its problem+json.
 * Each refused change is an `access.denied` entry in the audit trail (denials.ts coalesces a flood).
 */
export function routeWrapper(getRuntime: () => Promise<Runtime>) {
  return <P = Record<string, never>>(action: Action, handler: RouteHandler<P>, options: RouteOptions = {}) =>
    async (request: NextRequest, context: { params: Promise<P> }): Promise<Response> => {
      const ip = clientIp(request);
      const deny = async (user: SignedInUser | null, status: 401 | 403, reason: string, detail = {}) => {
        if (!MUTATING.has(request.method)) return;
        const path = new URL(request.url).pathname;
        denials(await getRuntime())(`${ip}|${user?.email ?? ""}|${status}|${reason}`, {
          action: "access.denied",
          actor: user && { email: user.email, role: user.role },
          ip,
          subject: `${request.method} ${path}`,
          detail: { status, reason, ...detail },
        });
      };
      try {
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
          return refuse(403, "Forbidden", `The ${user.role} role may not do this (${action}).`, {
            role: user.role,
            action,
          });
        }
        const runtime = await getRuntime();
        // Counted in flight: a shutdown lets it finish (a create until its journal entry is complete).
        const ctx = { request, params: await context.params, user, sessionId, runtime, ip };
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
    };
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
