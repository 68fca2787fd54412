/**
 * What the dashboard's back end adds to a create order: the same load sent straight to
 * the embedded sandbox and through the dashboard's route handler, in one run.
 *
 *   npm run build && npm run bench:proxy [-- <orders per mode and concurrency> [<block size>]]
 *
 * The built app (`next start`, market maker off) runs on a free port. "direct" is
 * POST /sandbox/v2/profiles/{id}/orders with a bearer token; "proxy" is
 * POST /api/v2/profiles/{id}/orders with a trader's session cookie, which checks the
 * session and role, validates, journals, and sends the order to the same sandbox. Each
 * order is a small LIMIT buy far below the market (it rests, nothing fills) with its own
 * ref_id and amount. After a warm-up, blocks of each mode alternate so machine noise hits both.
 */
import { randomUUID } from "node:crypto";
import { profileId } from "@/lib/sandbox/seed";
import { signIn, startApp } from "../support/app-server";

const ORDERS = Number(process.argv[2] ?? 300);
const BLOCK = Number(process.argv[3] ?? 50);
const CONCURRENCY = [1, 8];
const WARMUP = 100;
const PROFILE = profileId("trading");

type Mode = "direct" | "proxy";
type Send = (body: object) => Promise<number>;

let sent = 0;
/** Each order a little different: the dashboard asks before sending a repeat of a create made a minute ago. */
const order = () => ({
  market: "ETHUSD",
  side: "BUY",
  type: "LIMIT",
  price: "100.00",
  base_amount: `0.01${String(++sent % 1_000_000).padStart(6, "0")}`,
  ref_id: `bench-${randomUUID()}`,
});

/** Runs `count` sends with `concurrency` in flight; returns each latency (ms) and the wall time. */
async function block(send: Send, count: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const t0 = performance.now();
        const status = await send(order());
        latencies.push(performance.now() - t0);
        if (status !== 200) throw new Error(`a create answered ${status}`);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

async function main() {
  const app = await startApp({ SANDBOX_API_RATE_PER_SECOND: "1000000", SANDBOX_MARKET_MAKER: "off" });
  try {
    const trader = await signIn(app, "trader@example.com");
    if (!trader.signedIn) throw new Error("the trader could not sign in");
    const tokenRes = await fetch(`${app.url}/sandbox/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "dashboard",
        client_secret: "sandbox-secret",
        scope: "exchange:write_order",
      }),
    });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };

    const post = async (url: string, headers: Record<string, string>, body: object) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const send: Record<Mode, Send> = {
      direct: (body) =>
        post(`${app.url}/sandbox/v2/profiles/${PROFILE}/orders`, { Authorization: `Bearer ${token}` }, body),
      proxy: (body) =>
        post(`${app.url}/api/v2/profiles/${PROFILE}/orders`, { Cookie: trader.cookie(), Origin: app.url }, body),
    };

    for (const mode of ["direct", "proxy"] as Mode[]) await block(send[mode], WARMUP, 4);

    console.log(`${ORDERS} create-order requests per mode and concurrency, in alternating blocks of ${BLOCK}\n`);
    console.log("mode     conc   p50 ms   p99 ms    req/s");
    const results: Record<string, { p50: number; p99: number; rps: number }> = {};
    for (const concurrency of CONCURRENCY) {
      const all: Record<Mode, { latencies: number[]; wallMs: number }> = {
        direct: { latencies: [], wallMs: 0 },
        proxy: { latencies: [], wallMs: 0 },
      };
      for (let done = 0, round = 0; done < ORDERS; done += BLOCK, round++) {
        const n = Math.min(BLOCK, ORDERS - done);
        // Alternate which mode goes first, so neither always runs on a warmer machine.
        const modes: Mode[] = round % 2 === 0 ? ["direct", "proxy"] : ["proxy", "direct"];
        for (const mode of modes) {
          const r = await block(send[mode], n, concurrency);
          all[mode].latencies.push(...r.latencies);
          all[mode].wallMs += r.wallMs;
        }
      }
      for (const mode of ["direct", "proxy"] as Mode[]) {
        const sorted = [...all[mode].latencies].sort((a, b) => a - b);
        const r = {
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          rps: (sorted.length / all[mode].wallMs) * 1000,
        };
        results[`${mode}:${concurrency}`] = r;
        console.log(
          `${mode.padEnd(8)} ${String(concurrency).padStart(4)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${r.rps.toFixed(0).padStart(8)}`,
        );
      }
    }
    console.log("\nproxy/direct   p50     p99     throughput");
    for (const concurrency of CONCURRENCY) {
      const d = results[`direct:${concurrency}`]!;
      const p = results[`proxy:${concurrency}`]!;
      console.log(
        `conc ${String(concurrency).padStart(2)}      ${(p.p50 / d.p50).toFixed(2).padStart(5)}   ${(p.p99 / d.p99).toFixed(2).padStart(5)}   ${(p.rps / d.rps).toFixed(2).padStart(5)}`,
      );
    }
    const c1 = results["proxy:1"]!.p50 / results["direct:1"]!.p50;
    console.log(
      `\nadded latency at concurrency 1 (p50): ${((c1 - 1) * 100).toFixed(0)}% (goal: at most 25%) ${c1 <= 1.25 ? "met" : "NOT met"}`,
    );
  } finally {
    await app.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
