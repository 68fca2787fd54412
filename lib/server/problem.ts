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

export const problemResponse = (p: Problem): Response =>
  new Response(JSON.stringify(p), { status: p.status, headers: { "Content-Type": "application/problem+json" } });
