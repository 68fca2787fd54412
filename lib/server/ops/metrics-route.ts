import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { problemResponse } from "@/lib/server/http/toolkit";
import { problem } from "@/lib/spec";
import { scrape } from "./metrics";
import { withRole } from "../http/route";
import { runtime, type Runtime } from "../runtime";

/**
 * GET /api/metrics: Prometheus text for an admin's session, or for a scraper sending
 * `Authorization: Bearer $METRICS_TOKEN`. A bearer token decides on its own: a wrong one (or any,
 * while METRICS_TOKEN is unset) is a 403, whatever cookie comes with it.
 */
export function metricsHandler(getRuntime = runtime) {
  const bySession = withRole("metrics:read", async ({ runtime }) => exposition(runtime));
  return async (request: NextRequest, context: { params: Promise<Record<string, never>> }): Promise<Response> => {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim();
    if (bearer === undefined) return bySession(request, context);
    const rt = await getRuntime();
    const token = rt.config.METRICS_TOKEN;
    if (!token || !sameSecret(bearer, token)) {
      return problemResponse(problem(403, "Forbidden", "The bearer token is not this dashboard's METRICS_TOKEN."));
    }
    return exposition(rt);
  };
}

async function exposition(rt: Runtime): Promise<Response> {
  const { contentType, text } = await scrape(rt.db, rt.metrics);
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}

/** Compared as hashes, so neither the time taken nor a length check tells how much of it matched. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
