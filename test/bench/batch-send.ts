/**
 * A 200-row batch sent at the service's pace, and what it costs a trader meanwhile (issue 27's
 * "done when"): the built dashboard (`next start`, its embedded sandbox, SQLite) takes a batch of
 * 200 transfers from ops; the time from its 201 to COMPLETED is printed, and every row is looked
 * up at the service (exactly once each). A trader places orders one after another before the
 * batch (alone) and while it is sending; their latencies are printed and compared in this one run.
 *
 *   npm run build && npm run bench:batch-send [-- <rows> <orders>]
 */
import { profileId } from "@/lib/sandbox/seed";
import { signIn, startApp } from "../support/app-server";

const ROWS = Number(process.argv[2] ?? 200);
const ORDERS = Number(process.argv[3] ?? 30);
const TREASURY = profileId("treasury");
const SETTLEMENT = profileId("settlement");
const TRADING = profileId("trading");

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p90: quantile(s, 0.9), max: s.at(-1)! };
};

async function main() {
  // The service's published rates, for the sandbox and the dashboard's budget alike (the tests' app runs unthrottled).
  const published = { API: "50", TRANSFER: "20", ORDER_BOOK: "10" };
  const rates = Object.fromEntries(
    Object.entries(published).flatMap(([k, v]) => [
      [`SANDBOX_${k}_RATE_PER_SECOND`, v],
      [`SERVICE_${k}_RATE_PER_SECOND`, v],
    ]),
  );
  const app = await startApp({ LOG_LEVEL: "warn", ...rates });
  try {
    const ops = await signIn({ url: app.url }, "ops@example.com");
    const trader = await signIn({ url: app.url }, "trader@example.com");
    let n = 0;
    /** One resting limit buy, each its own amount (the same order again would be asked about). */
    const order = async () => {
      n += 1;
      const body = {
        market: "BTCUSD",
        side: "BUY",
        type: "LIMIT",
        price: "1000.00",
        base_amount: `0.${String(n).padStart(4, "0")}`,
        ref_id: `bench-order-${Date.now()}-${n}`,
      };
      const started = performance.now();
      const res = await trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, body);
      if (res.status !== 200) throw new Error(`order answered ${res.status}: ${JSON.stringify(res.body)}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 3; i++) await order(); // warm-up
    const alone: number[] = [];
    for (let i = 0; i < ORDERS; i++) alone.push(await order());

    // A 1,000-row file checked and previewed by the back end, as the page asks at each change.
    const file = [
      "from_profile,to_profile,asset,amount,note",
      ...Array.from(
        { length: 1000 },
        (_, i) => `Treasury,Settlement,USD,"1,${String(i).padStart(3, "0")}.50",row ${i + 1}`,
      ),
    ].join("\n");
    const previews: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await fetch(`${app.url}/api/batches/preview?ref_id=bench-preview-${i}`, {
        method: "POST",
        headers: { "Content-Type": "text/csv", Cookie: ops.cookie(), Origin: app.url },
        body: file,
      });
      const body = (await res.json()) as { preview: { rows: unknown[]; errors: unknown[] } };
      if (res.status !== 200 || body.preview.rows.length !== 1000) throw new Error(`preview answered ${res.status}`);
      previews.push(performance.now() - started);
    }

    const ref = `bench-batch-${Date.now()}`;
    const transfers = Array.from({ length: ROWS }, (_, i) => ({
      from_profile_id: TREASURY,
      to_profile_id: SETTLEMENT,
      asset: "USD",
      amount: `0.${String(i + 1).padStart(3, "0")}`,
    }));
    const asked = performance.now();
    const created = await ops.call("POST", "/api/batches", { ref_id: ref, transfers });
    if (created.status !== 201) throw new Error(`batch answered ${created.status}: ${JSON.stringify(created.body)}`);
    const answeredMs = performance.now() - asked;
    const id = created.body.batch.id as string;

    const during: number[] = [];
    let batch: { status: string; counts: Record<string, number> } = created.body.batch;
    while (batch.status === "SENDING") {
      if (during.length < ORDERS) during.push(await order());
      else await new Promise((r) => setTimeout(r, 200));
      batch = (await ops.call("GET", `/api/batches/${id}`)).body.batch;
    }
    const sendMs = performance.now() - asked;

    // Each row looked up at the service by its ref_id: one DEBIT leg each.
    let debits = 0;
    let once = true;
    for (let row = 1; row <= ROWS; row++) {
      const res = await ops.call("GET", `/api/v2/transfer/transfers?ref_ids=${encodeURIComponent(`${ref}-${row}`)}`);
      const legs = (res.body.items as { direction: string }[]).filter((t) => t.direction === "DEBIT").length;
      debits += legs;
      once &&= legs === 1;
    }

    const a = summary(alone);
    const d = summary(during);
    const p = summary(previews);
    console.log(
      `a 1,000-row CSV file checked and previewed (POST /api/batches/preview): p50 ${p.p50.toFixed(0)} ms, max ${p.max.toFixed(0)} ms (5 runs)`,
    );
    console.log(`batch of ${ROWS} rows: ${batch.status}, counts ${JSON.stringify(batch.counts)}`);
    console.log(`  answered (201) in ${answeredMs.toFixed(0)} ms; all rows sent in ${(sendMs / 1000).toFixed(1)} s`);
    console.log(
      `  (${(ROWS / (sendMs / 1000)).toFixed(1)} rows/s; at the service: ${debits} transfers, each row once: ${once})`,
    );
    console.log(`trader's order latency, ms (p50 / p90 / max):`);
    console.log(
      `  alone:          ${a.p50.toFixed(0)} / ${a.p90.toFixed(0)} / ${a.max.toFixed(0)}  (${alone.length} orders)`,
    );
    console.log(
      `  during a batch: ${d.p50.toFixed(0)} / ${d.p90.toFixed(0)} / ${d.max.toFixed(0)}  (${during.length} orders)`,
    );
    console.log(`  ratio during/alone: p50 ${(d.p50 / a.p50).toFixed(2)}, p90 ${(d.p90 / a.p90).toFixed(2)}`);
  } finally {
    await app.dispose();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
