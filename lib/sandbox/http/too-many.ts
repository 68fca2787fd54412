import type { Refusal } from "../rate-limit";
import { problemResponse } from "@/lib/server/http/toolkit";
import { problem } from "@/lib/spec";

/**
 * The 429 of a caller over its limit, or in its penalty after one. Like the service's, it has no
 * Retry-After: a client must stay under the limits rather than retry into them (the lockout
 * that follows a 429 is the rate limiter's penalty).
 */
export function tooManyRequests(refusal: Refusal, rate: number): Response {
  const detail =
    refusal.reason === "penalty"
      ? `a rate limit was exceeded: this caller is refused for ${refusal.retryAfterSeconds} more seconds`
      : `rate limit of ${rate} requests per second exceeded`;
  return problemResponse(problem(429, "Too Many Requests", detail));
}
