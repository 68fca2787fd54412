"use client";

import { useMemo } from "react";
import { useHydrated } from "./hydrated";
import { useProfiles } from "./queries";

/**
 * Profiles by id, for showing nicknames instead of UUIDs; an unknown id shows as itself. None
 * while hydrating: the server rendered without them, and a table's filter lists them.
 */
export function useProfileNames() {
  const hydrated = useHydrated();
  const { data: loaded } = useProfiles();
  const data = hydrated ? loaded : undefined;
  return useMemo(() => {
    const names = new Map((data ?? []).map((p) => [p.id, p.nickname]));
    return {
      profiles: data ?? [],
      nickname: (id: string): string => names.get(id) ?? id,
    };
  }, [data]);
}
