import type { Problem } from "@/lib/spec";

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** An RFC 9457 problem response. */
export const problemResponse = (problem: Problem, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });

export const simpleProblem = (
  status: number,
  title: string,
  detail: string,
  meta?: Record<string, unknown>,
): Problem => ({
  type: "about:blank",
  title,
  status,
  detail,
  ...(meta ? { meta } : {}),
});
