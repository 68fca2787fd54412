import type { Refusal } from "../rate-limit";
import { problemResponse } from "@/lib/http";
import { problem } from "@/lib/spec";

/** The 429 of a caller over its limit, or in its penalty after one. */
export function tooManyRequests(refusal: Refusal, rate: number): Response {
  const detail =
    refusal.reason === "penalty"
      ? `a rate limit was exceeded: this caller is refused for ${refusal.retryAfterSeconds} more seconds`
      : `rate limit of ${rate} requests per second exceeded`;
  return problemResponse(problem(429, "Too Many Requests", detail), {
    "Retry-After": String(refusal.retryAfterSeconds),
  });
}
