"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { streamUp } from "@/lib/client/live-status";

/**
 * A record the service answered with, kept current until it is final: the create answers
 * SUBMITTED or PENDING and the record moves on a moment later. The page's live stream brings
 * each change (lib/client/live-events.ts); the card reads the record itself only while the
 * stream is down, so an open card costs the service nothing. `onFinal` runs once when the
 * record is seen becoming final (for a notice), not when it was final from the start.
 */
export function useFollowRecord<T extends { status: string }>({
  created,
  queryKey,
  read,
  isFinal,
  onFinal,
}: {
  created: T;
  queryKey: readonly unknown[];
  read: () => Promise<T>;
  isFinal: (status: string) => boolean;
  onFinal: (record: T) => void;
}): T {
  const { data = created } = useQuery({
    queryKey,
    queryFn: read,
    initialData: created,
    refetchInterval: (q) => ((q.state.data && isFinal(q.state.data.status)) || streamUp() ? false : 1_000),
  });
  const seen = useRef(created.status);
  const onFinalNow = useRef(onFinal);
  useEffect(() => {
    onFinalNow.current = onFinal;
  });
  useEffect(() => {
    if (data.status === seen.current) return;
    const wasFinal = isFinal(seen.current);
    seen.current = data.status;
    if (!wasFinal && isFinal(data.status)) onFinalNow.current(data);
  }, [data, isFinal]);
  return data;
}
