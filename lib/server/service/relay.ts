import "server-only";
import { problemResponse, serviceSignInFailed } from "../problem";
import type { UpstreamResponse } from "../upstream/client";

/**
 * The service's answer, status and body as they are: records as JSON, problems as problems.
 * Except a 401: the client already retried with a fresh token, so the service refuses the
 * dashboard itself, and the browser must not read it as the end of its own session.
 */
export function relay(res: { status: number; body: unknown; headers?: UpstreamResponse["headers"] }): Response {
  if (res.status === 401) return problemResponse(serviceSignInFailed());
  const type =
    res.headers?.get("content-type")?.startsWith("application/problem+json") || res.status >= 400
      ? "application/problem+json"
      : "application/json";
  return new Response(JSON.stringify(res.body ?? {}), { status: res.status, headers: { "Content-Type": type } });
}
