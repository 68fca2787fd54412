"use client";

import { useMemo } from "react";
import { useProfiles } from "./queries";

/** Profiles by id, for showing nicknames instead of UUIDs; an unknown id shows as itself. */
export function useProfileNames() {
  const { data } = useProfiles();
  return useMemo(() => {
    const names = new Map((data ?? []).map((p) => [p.id, p.nickname]));
    return {
      profiles: data ?? [],
      nickname: (id: string): string => names.get(id) ?? id,
    };
  }, [data]);
}
