import "server-only";
import type { DeskProfile } from "@/lib/shared/batch-file";
import { problem, ProblemError } from "@/lib/spec";
import type { UpstreamClient } from "./client";

/**
 * The desk's profiles as the service lists them: what a stream may watch (lib/server/live) and
 * what a batch's rows may name, by id or nickname (lib/server/batches).
 */

/** The service's profiles are read again after this; a stream naming one of them waits no longer. */
const KEEP_MS = 30_000;
/** Pages of GET /profiles read at most (1,000 profiles each, the service's default). */
const MAX_PAGES = 20;

const kept = new WeakMap<UpstreamClient, { at: number; profiles: Promise<DeskProfile[]> }>();

/** Every profile the service lists (GET /profiles, every page): its id and nickname, shared for KEEP_MS. */
export async function deskProfiles(upstream: UpstreamClient, now: () => number = Date.now): Promise<DeskProfile[]> {
  const known = kept.get(upstream);
  if (known && now() - known.at < KEEP_MS) return known.profiles;
  const profiles = (async () => {
    const all: DeskProfile[] = [];
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
      const body = res.body as {
        items?: { id?: unknown; nickname?: unknown }[];
        next_page_cursor?: unknown;
        next_page?: unknown;
      };
      for (const p of body.items ?? []) {
        if (typeof p.id === "string")
          all.push({ id: p.id, nickname: typeof p.nickname === "string" ? p.nickname : "" });
      }
      // The cursor is next_page_cursor, or next_page, a name the service also uses; absent on the last page.
      const next = body.next_page_cursor ?? body.next_page;
      cursor = typeof next === "string" && next ? next : undefined;
      if (!cursor || !body.items?.length) break;
    }
    return all;
  })();
  kept.set(upstream, { at: now(), profiles });
  profiles.catch(() => kept.get(upstream)?.profiles === profiles && kept.delete(upstream));
  return profiles;
}
