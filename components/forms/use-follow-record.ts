"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { streamUp } from "@/lib/client/live-status";

/**
 * A record the service answered with, kept current until it is final: the create answers
 * SUBMITTED or PENDING and the record moves on a moment later. The page's live stream brings
 * each change (lib/client/live-events.ts); the card reads the record itself every second while
 * the stream is down, and every STREAMED_CHECK_MS while it is up, so a change the stream did not
 * bring (a stream that reconnected meanwhile, a page that watches other records) still shows,
 * for one read in a while of a card not final yet. `onFinal` runs once when the record is seen
 * becoming final (for a notice), not when it was final from the start.
 */
/** How often a card not final reads its record while the stream is up: a safety net, not the way it learns. */
const STREAMED_CHECK_MS = 5_000;

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
    refetchInterval: (q) =>
      q.state.data && isFinal(q.state.data.status) ? false : streamUp() ? STREAMED_CHECK_MS : 1_000,
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
