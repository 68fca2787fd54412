import "server-only";
import { fieldProblem } from "@/lib/server/http/toolkit";
import { deskProfiles } from "../upstream/desk-profiles";
import type { UpstreamClient } from "../upstream/client";

/**
 * Refuses (400 on `profiles`) a stream naming a profile the service does not have: the watcher
 * reads the balances of every profile a stream names, and must not be sent after made-up ones.
 */
export async function requireKnownProfiles(
  upstream: UpstreamClient,
  profiles: readonly string[],
  now: () => number = Date.now,
): Promise<void> {
  if (profiles.length === 0) return;
  const known = new Set((await deskProfiles(upstream, now)).map((p) => p.id));
  const unknown = profiles.filter((p) => !known.has(p));
  if (unknown.length > 0) throw fieldProblem("profiles", `no such profile: ${unknown.join(", ")}`);
}
