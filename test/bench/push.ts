/**
 * Live updates (GET /api/events): how fast an order placed by one user reaches K others'
 * streams, what the open streams cost the service, and what one stream costs in memory.
 *
 *   npm run build && npm run bench:push [-- <orders per K>]
 *
 * (It runs under `tsx --conditions=react-server --expose-gc`, to load the server's modules
 * for the memory figure and to collect garbage before weighing.)
 *
 * The built app (`next start`, its embedded sandbox, market maker off) talks to its sandbox
 * through a counting proxy, so every call that reaches "the service" is counted. Each stream is
 * a screen showing one profile's balances and one market's ticker; the sessions are the demo
 * users' (several streams per user).
 */
import { randomUUID } from "node:crypto";
import { profileId } from "@/lib/sandbox/seed";
import { signIn, startApp } from "../support/app-server";
import { openStream, type OpenStream } from "../support/event-stream";
import { startFaultProxy } from "../support/fault-proxy";

const ORDERS = Number(process.argv[2] ?? 20);
const KS = [1, 10, 100];
const PROFILE = profileId("trading");
const SCREEN = `?profiles=${PROFILE}&markets=ETHUSD`;
const COUNT_WINDOW_MS = 15_000;

let placed = 0;
/** A small resting buy, each a different amount: the same order again would be asked about as a repeat. */
const order = (ref_id: string) => ({
  market: "ETHUSD",
  side: "BUY",
  type: "LIMIT",
  price: "100.00",
  base_amount: `0.${String(1000 + placed++).padStart(4, "0")}`,
  ref_id,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main() {
  const proxy = await startFaultProxy();
  const app = await startApp(proxy.env());
  proxy.setTarget(app.port);
  try {
    const trader = await signIn(app, "trader@example.com");
    const readers = await Promise.all(
      ["viewer", "ops", "approver", "admin"].map((r) => signIn(app, `${r}@example.com`)),
    );
    const open = (n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) => openStream(app.url, readers[i % readers.length]!.cookie(), SCREEN)),
      );
    // Warm the routes and the watcher.
    const warm = await open(1);
    await trader.call("POST", `/api/v2/profiles/${PROFILE}/orders`, order(`bench-warm-${randomUUID()}`));
    await sleep(1_500);
    warm[0]!.close();

    console.log(`GET /api/events: order placed by one user -> arrived on K other streams (${ORDERS} orders per K)`);
    for (const k of KS) {
      const streams = await open(k);
      await sleep(1_500);
      const times: number[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const ref = `bench-${randomUUID()}`;
        const arrivals = streams.map((s) => s.next((e) => e.event === "order" && e.data.ref_id === ref, 10_000));
        const all = Promise.all(arrivals);
        all.catch(() => undefined);
        const sent = performance.now();
        const res = await trader.call("POST", `/api/v2/profiles/${PROFILE}/orders`, order(ref));
        if (res.status !== 200) throw new Error(`order answered ${res.status}: ${JSON.stringify(res.body)}`);
        for (const e of await all) times.push(e.at - sent);
      }
      times.sort((a, b) => a - b);
      console.log(
        `  K=${String(k).padStart(3)}  p50 ${quantile(times, 0.5).toFixed(0).padStart(4)} ms  p95 ${quantile(times, 0.95).toFixed(0).padStart(4)} ms  (${times.length} arrivals)`,
      );
      for (const s of streams) s.close();
      await sleep(500);
    }

    console.log(
      `Upstream calls per minute with N open screens: a stream each, polling the book each second and trades every two (counted over ${COUNT_WINDOW_MS / 1000} s, no browsers)`,
    );
    const perMinute: Record<number, number> = {};
    for (const n of KS) {
      const streams: OpenStream[] = await open(n);
      // Each screen also polls its market's book each second and its trades every two, as the
      // orders page does; each from its own moment, as screens opened at different times would.
      const polls = Array.from({ length: n }, (_, i) => {
        const reader = readers[i % readers.length]!;
        const every = (ms: number, path: string) =>
          setTimeout(() => timers.push(setInterval(() => void reader.call("GET", path), ms)), Math.random() * ms);
        const timers: NodeJS.Timeout[] = [];
        const starts = [
          every(1_000, "/api/v2/markets/ETHUSD/order-book"),
          every(2_000, "/api/v2/markets/ETHUSD/recent-executions"),
        ];
        return () => [...starts, ...timers].forEach((t) => clearTimeout(t));
      });
      await sleep(2_500);
      const before = proxy.count();
      await sleep(COUNT_WINDOW_MS);
      perMinute[n] = ((proxy.count() - before) * 60_000) / COUNT_WINDOW_MS;
      console.log(`  N=${String(n).padStart(3)}  ${perMinute[n]!.toFixed(0)} calls/min`);
      for (const stop of polls) stop();
      for (const s of streams) s.close();
      await sleep(1_000);
    }
    console.log(`  100 screens cost ${(perMinute[100]! / perMinute[1]!).toFixed(2)}x what 1 costs (goal <= 1.1x)`);
    const bytes = await memoryPerStream();
    console.log(`Memory per open stream: ${(bytes / 1024).toFixed(1)} kB (server heap, 1,000 streams, after GC)`);
  } finally {
    await app.dispose();
    await proxy.close();
  }
}

/**
 * What one open stream holds on the server, measured in this process with the server's own
 * modules (a live hub and GET /api/events's response, its body read as a browser would):
 * heap after a full GC with 1,000 streams open, less the heap before, per stream.
 */
async function memoryPerStream(n = 1_000): Promise<number> {
  const { createLive } = await import("@/lib/server/live/hub");
  const { eventStream } = await import("@/lib/server/live/stream");
  const streamMetrics = (await import("@/lib/server/ops/metrics")).createMetrics();
  const upstream = { request: async () => ({ status: 200, body: { items: [] }, headers: new Headers() }) };
  const live = createLive({ upstream, watchEveryMs: 60_000 });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc (npm run bench:push does)");
  const settle = async () => {
    await sleep(200);
    gc();
    return process.memoryUsage().heapUsed;
  };
  // Warm: the first stream loads the modules' code.
  const first = new AbortController();
  const viewer = (i: number) => ({ role: "viewer" as const, person: `viewer-${i}@example.com` });
  void eventStream(live, streamMetrics, viewer(-1), { profiles: [], markets: [] }, first.signal)
    .body!.getReader()
    .read();
  const before = await settle();
  const aborts = Array.from({ length: n }, () => new AbortController());
  const readers = aborts.map((a, i) => {
    const reader = eventStream(
      live,
      streamMetrics,
      viewer(i),
      { profiles: [`p${i % 5}`], markets: ["ETHUSD"] },
      a.signal,
    ).body!.getReader();
    void reader.read();
    return reader;
  });
  const after = await settle();
  for (const a of aborts) a.abort();
  first.abort();
  await live.stop();
  void readers;
  return (after - before) / n;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
