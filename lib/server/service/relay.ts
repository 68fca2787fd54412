import "server-only";
import type { UpstreamResponse } from "../upstream/client";

/** The service's answer, status and body as they are: records as JSON, problems as problems. */
export function relay(res: { status: number; body: unknown; headers?: UpstreamResponse["headers"] }): Response {
  const type =
    res.headers?.get("content-type")?.startsWith("application/problem+json") || res.status >= 400
      ? "application/problem+json"
      : "application/json";
  return new Response(JSON.stringify(res.body ?? {}), { status: res.status, headers: { "Content-Type": type } });
}
