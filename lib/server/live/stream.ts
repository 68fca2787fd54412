import "server-only";
import { problemResponse } from "@/lib/server/http/toolkit";
import { problem } from "@/lib/spec";
import type { Metrics } from "../ops/metrics";
import type { LiveEvent, Wants } from "./events";
import type { Live, Numbered, Viewer } from "./hub";

/** A comment line this often keeps proxies from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** The browser's wait before it reconnects a dropped stream (the SSE `retry:` field). */
export const RETRY_MS = 2_000;
/** A reader this far behind is cut off; its browser reconnects and its page refetches. */
const MAX_BEHIND_BYTES = 1 << 20;

/** One SSE event: name, id, and the record as one line of JSON. */
export const formatEvent = ({ id, event }: Numbered): string =>
  `event: ${event.name}\nid: ${id}\ndata: ${JSON.stringify(event.data)}\n\n`;

/** Streams one person may have open at once, on every instance together. */
export const MAX_STREAMS_PER_PERSON = 10;

/**
 * GET /api/events's answer: the events `viewer`'s role may see of what `wants` shows, until the
 * browser leaves or `until` says the session ended (it is handed the function that ends the
 * stream, and answers the one that stops watching). A person's 11th stream is a 429 problem;
 * the count and the opening happen in one turn of the event loop, so no two race past it.
 * `metrics` counts it among the open streams while it lasts.
 */
export function eventStream(
  live: Live,
  metrics: Pick<Metrics, "eventStreams">,
  viewer: Viewer,
  wants: Wants,
  signal: AbortSignal,
  until: (end: () => void) => () => void = () => () => {},
): Response {
  const already = live.streamsOf(viewer.person);
  if (already >= MAX_STREAMS_PER_PERSON) {
    return problemResponse(
      problem(
        429,
        "Too Many Requests",
        `At most ${MAX_STREAMS_PER_PERSON} live streams may be open per person; close another tab of the dashboard first.`,
        { limit: MAX_STREAMS_PER_PERSON, open: already },
      ),
    );
  }
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        let finish = () => {};
        let unwatch = () => {};
        const write = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
            if ((controller.desiredSize ?? 0) < -MAX_BEHIND_BYTES) finish();
          } catch {
            finish();
          }
        };
        const subscription = live.open(viewer, wants, (e) => write(formatEvent(e)));
        const heartbeat = setInterval(() => write(": heartbeat\n\n"), HEARTBEAT_MS);
        metrics.eventStreams.inc();
        finish = () => {
          if (!open) return;
          open = false;
          metrics.eventStreams.dec();
          clearInterval(heartbeat);
          subscription.close();
          unwatch();
          signal.removeEventListener("abort", end);
          try {
            controller.close();
          } catch {
            // already closed or cancelled
          }
        };
        stop = finish;
        // Ended from our side (a shutdown): the last word tells the browser when to come back,
        // and it reconnects to whichever instance the load balancer picks.
        const end = () => {
          write(`retry: ${RETRY_MS}\n: closing\n\n`);
          finish();
        };
        signal.addEventListener("abort", end);
        write(`retry: ${RETRY_MS}\n: open\n\n`);
        if (signal.aborted) end();
        // Last: a session already ended ends the stream at once (finish is ready).
        else unwatch = until(() => finish());
      },
      cancel() {
        stop();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      // nginx and similar would otherwise hold events back to fill a buffer.
      "X-Accel-Buffering": "no",
    },
  });
}

export type { LiveEvent };
