import "server-only";
import type { Problem } from "@/lib/spec";

/** An error a route handler answers with as a problem+json body. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }
}

export const problem = (status: number, title: string, detail: string, meta?: Record<string, unknown>): Problem => ({
  type: "about:blank",
  title,
  status,
  detail,
  ...(meta ? { meta } : {}),
});

export const problemResponse = (p: Problem, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(p), {
    status: p.status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });

/**
 * The service refused the dashboard's own credentials (its token endpoint, or a fresh token
 * refused again). A 502: a 401 would tell the browser its staff session is over.
 */
export const serviceSignInFailed = (): Problem =>
  problem(
    502,
    "Service Sign-in Failed",
    "The dashboard could not sign in to the service. Ask an administrator to check its credentials.",
  );
