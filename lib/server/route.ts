import "server-only";
import type { NextRequest } from "next/server";
import { problemResponse } from "@/lib/http";
import { can, type Action } from "@/lib/roles";
import { problem, ProblemError } from "@/lib/spec";
import { currentUser, type SignedInUser } from "./auth/session";
import { log } from "./log";
import { clientIp, isSameOrigin } from "./origin";
import { runtime, type Runtime } from "./runtime";
import { UpstreamError, upstreamProblem, type UpstreamResponse } from "./upstream/client";

export interface RouteContext<P> {
  request: NextRequest;
  params: P;
  user: SignedInUser;
  runtime: Runtime;
  /** The caller's address, for the audit trail. */
  ip: string | null;
}

export type RouteHandler<P> = (ctx: RouteContext<P>) => Promise<Response>;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Makes the wrapper every dashboard API handler goes through, over the runtime `getRuntime`
 * gives: a same-origin check for changes (403), a staff session (401), the role for `action`
 * (403), then the handler; a thrown problem or upstream failure becomes its problem+json.
 */
export function routeWrapper(getRuntime: () => Promise<Runtime>) {
  return <P = Record<string, never>>(action: Action, handler: RouteHandler<P>) =>
    async (request: NextRequest, context: { params: Promise<P> }): Promise<Response> => {
      try {
        if (MUTATING.has(request.method) && !isSameOrigin(request)) {
          return refuse(
            403,
            "Forbidden",
            "Changes must come from the dashboard's own pages (cross-origin request refused).",
          );
        }
        const user = await currentUser(request, getRuntime);
        if (!user) return refuse(401, "Unauthorized", "Sign in to use the dashboard.");
        if (!can(user.role, action)) {
          return refuse(403, "Forbidden", `The ${user.role} role may not do this (${action}).`, {
            role: user.role,
            action,
          });
        }
        const runtime = await getRuntime();
        // Counted in flight: a shutdown lets it finish (a create until its journal entry is complete).
        const ctx = { request, params: await context.params, user, runtime, ip: clientIp(request) };
        return await runtime.lifecycle.track(handler(ctx));
      } catch (error) {
        if (error instanceof ProblemError) return problemResponse(error.problem);
        if (error instanceof UpstreamError) return problemResponse(upstreamProblem(error));
        log.error({ err: error }, "dashboard: request failed");
        return refuse(500, "Internal Server Error", "The dashboard failed to handle this request.");
      }
    };
}

const refuse = (status: number, title: string, detail: string, meta?: Record<string, unknown>) =>
  problemResponse(problem(status, title, detail, meta));

/** `withRole("orders:create", async ({ request, params, user, runtime }) => ...)`, over the process's runtime. */
export const withRole = routeWrapper(runtime);

/** The service's answer, status and body as they are: records as JSON, problems as problem+json. */
export function relay(res: Pick<UpstreamResponse, "status" | "body">): Response {
  const type = res.status >= 400 ? "application/problem+json" : "application/json";
  return new Response(JSON.stringify(res.body ?? {}), { status: res.status, headers: { "Content-Type": type } });
}
