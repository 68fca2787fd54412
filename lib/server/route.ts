import "server-only";
import { can, type Action } from "@/lib/roles";
import { currentUser, type SignedInUser } from "./auth/session";
import { isSameOrigin } from "./origin";
import { problem, ProblemError, problemResponse, serviceSignInFailed } from "./problem";
import { TokenRequestError, UpstreamTimeout, UpstreamUnreachable } from "./upstream/errors";

export interface RouteContext<P> {
  request: Request;
  params: P;
  user: SignedInUser;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a person should read when the service could not be reached or did not answer. */
function upstreamProblem(error: unknown) {
  if (error instanceof UpstreamTimeout) {
    return problem(
      504,
      "Service Timeout",
      "The service did not answer in time. Nothing is lost: the request is journaled and will be reconciled.",
    );
  }
  if (error instanceof UpstreamUnreachable) {
    return problem(502, "Service Unreachable", "The service could not be reached. Try again in a moment.");
  }
  if (error instanceof TokenRequestError) return serviceSignInFailed();
  return undefined;
}

/**
 * Every dashboard API handler goes through here: same-origin check for changes, a staff
 * session (401), the role for `action` (403), then the handler; known failures become
 * problems a person understands.
 */
export function withRole<P = Record<string, never>>(
  action: Action,
  handler: (ctx: RouteContext<P>) => Promise<Response>,
) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      if (MUTATING.has(request.method) && !isSameOrigin(request)) {
        return problemResponse(
          problem(403, "Forbidden", "Changes must come from the dashboard's own pages (cross-origin request refused)."),
        );
      }
      const user = await currentUser(request);
      if (!user) return problemResponse(problem(401, "Unauthorized", "Sign in to use the dashboard."));
      if (!can(user.role, action)) {
        return problemResponse(
          problem(403, "Forbidden", `The ${user.role} role may not do this (${action}).`, { role: user.role, action }),
        );
      }
      return await handler({ request, params: await context.params, user });
    } catch (error) {
      if (error instanceof ProblemError) return problemResponse(error.problem);
      const mapped = upstreamProblem(error);
      if (mapped) return problemResponse(mapped);
      console.error("dashboard: request failed", error instanceof Error ? error.message : error);
      return problemResponse(problem(500, "Internal Server Error", "The dashboard failed to handle this request."));
    }
  };
}

/**
 * The handler for the methods a route does not offer: a 405 problem naming those it does
 * (without it Next answers an empty 405). Export it under each other method's name.
 */
export function methodNotAllowed(...allowed: string[]) {
  return async (): Promise<Response> =>
    problemResponse(problem(405, "Method Not Allowed", `This operation takes ${allowed.join(" or ")}.`), {
      Allow: allowed.join(", "),
    });
}
