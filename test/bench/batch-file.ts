/**
 * Ops at scale (issue 27), in process: the time to read and check a batch file of the most
 * rows allowed, and to plan a rebalance of a large desk (1,000 targets). Pure functions, no server.
 *
 *   npm run bench:batch [-- <runs>]
 *
 * A seeded 1,000-row CSV (profiles by nickname in any case, grouped amounts in quotes, notes
 * with commas, half the rows with a ref_id of their own) and the same batch as JSON are each
 * read and checked `runs` times (21 by default) after five warm-up runs; the median, the
 * fastest and the slowest are printed. The goal: a 1,000-row file well under a second.
 */
import { BATCH_MAX_ROWS, readBatchCsv, readBatchJson } from "@/lib/shared/batch-file";
import { toCsv } from "@/lib/shared/csv";
import { formatCount } from "@/lib/shared/format";
import { planRebalance } from "@/lib/shared/rebalance-plan";
import { Prng } from "@/lib/sandbox/prng";

const runs = Number(process.argv[2] ?? 21);
const prng = new Prng("bench:batch");
const profiles = Array.from({ length: 40 }, (_, i) => ({
  id: `4406aa9c-1b2e-4c3d-8e9f-${String(i).padStart(12, "0")}`,
  nickname: `Desk profile ${i}`,
}));
const ASSETS = ["USD", "BTC", "ETH", "USDC"];

const pick = <T>(xs: readonly T[]) => xs[prng.int(0, xs.length - 1)]!;
const grouped = (whole: number) => whole.toLocaleString("en-US");

function rows() {
  return Array.from({ length: BATCH_MAX_ROWS }, (_, i) => {
    const from = pick(profiles);
    let to = pick(profiles);
    while (to === from) to = pick(profiles);
    const amount = `${grouped(prng.int(1, 5_000_000))}.${String(prng.int(0, 99)).padStart(2, "0")}`;
    return {
      from: prng.chance(0.5) ? from.nickname.toUpperCase() : from.id,
      to: ` ${to.nickname.toLowerCase()} `,
      to_id: to.id,
      from_id: from.id,
      asset: pick(ASSETS),
      amount,
      ref_id: prng.chance(0.5) ? `payroll-2026-11-row-${i + 1}` : "",
      note: `Payroll, November: line ${i + 1}`,
    };
  });
}

function timed(label: string, run: () => { ok: boolean }) {
  for (let i = 0; i < 5; i++) if (!run().ok) throw new Error(`${label}: the batch was refused`);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const ms = (t: number) => `${t.toFixed(1)} ms`;
  console.log(
    `${label}: median ${ms(times[Math.floor(times.length / 2)]!)} ` +
      `(fastest ${ms(times[0]!)}, slowest ${ms(times.at(-1)!)}, ${runs} runs)`,
  );
}

function main() {
  const batch = rows();
  const header = ["from_profile", "to_profile", "asset", "amount", "ref_id", "note"];
  const csv = `\uFEFF${toCsv(
    header,
    batch.map((r) => [r.from, r.to, r.asset, r.amount, r.ref_id, r.note]),
  )}`;
  const file = new TextEncoder().encode(csv);
  const body = {
    ref_id: "payroll-2026-11",
    transfers: batch.map((r) => ({
      from_profile_id: r.from_id,
      to_profile_id: r.to_id,
      asset: r.asset,
      amount: r.amount,
      ...(r.ref_id ? { ref_id: r.ref_id } : {}),
      metadata: { note: r.note },
    })),
  };
  console.log(`batch: ${formatCount(BATCH_MAX_ROWS)} rows, ${(file.length / 1024).toFixed(0)} KiB of CSV`);
  timed(`CSV, read and checked`, () => readBatchCsv(file, { ref_id: "payroll-2026-11", profiles }));
  timed(`JSON, checked`, () => readBatchJson(body, { profiles }));

  // A desk of 250 profiles, each with a balance and a target in each of the 4 assets.
  const balances = Array.from({ length: 250 }, (_, i) => `rebalance-${i}`).flatMap((profile_id) =>
    ASSETS.map((asset) => ({ profile_id, asset, available: `${prng.int(0, 2_000_000)}.${prng.int(10, 99)}` })),
  );
  const targets = balances.map(({ profile_id, asset }) => ({
    profile_id,
    asset,
    target: `${prng.int(0, 1_000_000)}`,
    band: `${prng.int(0, 50_000)}`,
  }));
  timed(
    `rebalance of ${formatCount(targets.length)} targets, planned`,
    () => (planRebalance(balances, targets), { ok: true }),
  );
}

main();
