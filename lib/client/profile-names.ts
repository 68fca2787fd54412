"use client";

import { useMemo } from "react";
import { useHydrated } from "./hydrated";
import { useProfiles } from "./queries";

/**
 * Profiles by id, for showing nicknames instead of UUIDs; an unknown id shows as itself. None
 * (and `loading`) while hydrating: the server rendered without them, and a part that hydrates
 * late (a table, the order ticket) may find them already in the cache.
 */
export function useProfileNames() {
  const hydrated = useHydrated();
  const { data: loaded, isLoading } = useProfiles();
  const data = hydrated ? loaded : undefined;
  return useMemo(() => {
    const names = new Map((data ?? []).map((p) => [p.id, p.nickname]));
    return {
      profiles: data ?? [],
      loading: !hydrated || isLoading,
      nickname: (id: string): string => names.get(id) ?? id,
    };
  }, [data, hydrated, isLoading]);
}
