import type { Target } from "./app-server";

/** One server-sent event as a test reads it. */
export interface ReadEvent {
  event: string;
  id?: string;
  data: any;
  /** performance.now() when it arrived. */
  at: number;
}

export interface OpenStream {
  status: number;
  contentType: string;
  /** Every event so far, comments excluded. */
  events: ReadEvent[];
  /** Raw text so far (comments and `retry:` included). */
  text(): string;
  /** True once the server ended the stream (not the test's own close). */
  endedByServer(): boolean;
  /** The first event (already here or yet to come) that `match` accepts. */
  next(match: (e: ReadEvent) => boolean, timeoutMs?: number): Promise<ReadEvent>;
  /** performance.now() when the server ended the stream (or the test closed it). */
  ended: Promise<number>;
  close(): void;
}

/** Opens GET /api/events (with a session cookie, or none) and reads its events as they come. */
export async function openStream(base: string | Target, cookie?: string, query = ""): Promise<OpenStream> {
  const target = typeof base === "string" ? { url: base } : base;
  const abort = new AbortController();
  const res = await (target.fetch ?? fetch)(`${target.url}/api/events${query}`, {
    headers: { Accept: "text/event-stream", ...(cookie ? { Cookie: cookie } : {}) },
    signal: abort.signal,
  });
  const events: ReadEvent[] = [];
  const waiters = new Set<{ match: (e: ReadEvent) => boolean; resolve: (e: ReadEvent) => void }>();
  let raw = "";
  let buffer = "";
  let markEnded: (at: number) => void = () => {};
  const ended = new Promise<number>((resolve) => (markEnded = resolve));
  let endedByServer = false;
  const onBlock = (block: string) => {
    const e: Partial<ReadEvent> & { lines: string[] } = { lines: [] };
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) e.event = line.slice(7);
      else if (line.startsWith("id: ")) e.id = line.slice(4);
      else if (line.startsWith("data: ")) e.lines.push(line.slice(6));
    }
    if (!e.event || e.lines.length === 0) return;
    const read: ReadEvent = { event: e.event, id: e.id, data: JSON.parse(e.lines.join("\n")), at: performance.now() };
    events.push(read);
    for (const w of waiters) {
      if (w.match(read)) {
        waiters.delete(w);
        w.resolve(read);
      }
    }
  };
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(chunk, { stream: true });
          raw += text;
          buffer += text;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            onBlock(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
        endedByServer = true;
      } catch {
        // closed
      }
      markEnded(performance.now());
    })();
  } else {
    raw = await res.text();
    markEnded(performance.now());
  }
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    events,
    text: () => raw,
    endedByServer: () => endedByServer,
    next(match, timeoutMs = 10_000) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error(`no matching event within ${timeoutMs} ms: ${raw.slice(-500)}`));
        }, timeoutMs).unref();
      });
    },
    ended,
    close: () => abort.abort(),
  };
}
