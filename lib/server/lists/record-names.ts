import "server-only";
import type { JournalEntry, JournalKind } from "@/lib/shared/journal-entry";
import type { Db } from "../db";
import { listEntries } from "../db/journal";
import type { UpstreamClient } from "../upstream/client";

/**
 * The names an export writes beside the service's ids: profiles by nickname, and who sent
 * each create, from the journal. The tables show the same through lib/client/profile-names.ts
 * and useSubmitters.
 */

/** id → nickname from the service's profiles; an unknown id reads as itself. */
export async function profileNicknames(upstream: UpstreamClient): Promise<(id: string) => string> {
  const res = await upstream.request({ method: "GET", path: "/profiles" });
  const items = res.status === 200 ? ((res.body as { items?: { id: string; nickname: string }[] }).items ?? []) : [];
  const names = new Map(items.map((p) => [p.id, p.nickname]));
  return (id) => names.get(id) ?? id;
}

/** The journal's entries of `kind` for these ref_ids, by ref_id. */
export async function journalByRefId(
  db: Db,
  kind: JournalKind,
  refIds: readonly string[],
): Promise<Map<string, JournalEntry>> {
  const ids = [...new Set(refIds.filter(Boolean))];
  if (ids.length === 0) return new Map();
  const page = await listEntries(db, { kind, refIds: ids, limit: ids.length });
  return new Map(page.items.map((e) => [e.ref_id, e]));
}
