import "server-only";
import { fieldProblem } from "@/lib/server/http/toolkit";
import { problem, ProblemError } from "@/lib/spec";
import type { UpstreamClient } from "../upstream/client";

/** The service's profiles are read again after this; a stream naming one of them waits no longer. */
const KEEP_MS = 30_000;
/** Pages of GET /profiles read at most (1,000 profiles each, the service's default). */
const MAX_PAGES = 20;

const kept = new WeakMap<UpstreamClient, { at: number; ids: Promise<Set<string>> }>();

/** Every profile id the service lists (GET /profiles, every page), shared for KEEP_MS. */
async function profileIds(upstream: UpstreamClient, now: () => number): Promise<Set<string>> {
  const known = kept.get(upstream);
  if (known && now() - known.at < KEEP_MS) return known.ids;
  const ids = (async () => {
    const all = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await upstream.request({
        method: "GET",
        path: "/profiles",
        query: cursor ? { page_cursor: cursor } : undefined,
      });
      if (res.status !== 200) {
        throw new ProblemError(
          problem(502, "Bad Gateway", `The service's profiles could not be read (it answered ${res.status}).`),
        );
      }
      const body = res.body as { items?: { id?: unknown }[]; next_page_cursor?: unknown; next_page?: unknown };
      for (const p of body.items ?? []) if (typeof p.id === "string") all.add(p.id);
      // The cursor is next_page_cursor, or next_page, a name the service also uses; absent on the last page.
      const next = body.next_page_cursor ?? body.next_page;
      cursor = typeof next === "string" && next ? next : undefined;
      if (!cursor || !body.items?.length) break;
    }
    return all;
  })();
  kept.set(upstream, { at: now(), ids });
  ids.catch(() => kept.get(upstream)?.ids === ids && kept.delete(upstream));
  return ids;
}

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
  const known = await profileIds(upstream, now);
  const unknown = profiles.filter((p) => !known.has(p));
  if (unknown.length > 0) throw fieldProblem("profiles", `no such profile: ${unknown.join(", ")}`);
}
