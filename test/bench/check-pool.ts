/**
 * What running the unit and routes files as one pool saves `npm run check` (vitest.check.config.mts),
 * against running them as the two projects `npm test` has. Each way runs once to warm vitest's
 * module cache (each config has its own entries), then the two take turns, ROUNDS times, so a busy
 * moment of the machine falls on both. CPU is the whole machine's (test/bench/machine.ts).
 *
 *   npm run bench:check-pool          (ROUNDS=3 npm run bench:check-pool for more turns)
 */
import { timedRun } from "./machine";

const ROUNDS = Number(process.env.ROUNDS ?? 2);
const WAYS = {
  "two projects": ["vitest", "run", "--project", "unit", "--project", "routes"],
  "one pool": ["vitest", "run", "--config", "vitest.check.config.mts"],
};
type Way = keyof typeof WAYS;

function main() {
  for (const args of Object.values(WAYS)) timedRun("npx", args);
  const sum = { "two projects": { wall: 0, cpu: 0 }, "one pool": { wall: 0, cpu: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [way, args] of Object.entries(WAYS) as [Way, string[]][]) {
      const t = timedRun("npx", args);
      console.log(`round ${round + 1}, ${way}: ${t.wall.toFixed(1)} s, ${t.cpu.toFixed(0)} CPU-s`);
      sum[way].wall += t.wall;
      sum[way].cpu += t.cpu;
    }
  }
  const ratio = (key: "wall" | "cpu") => (sum["one pool"][key] / sum["two projects"][key]).toFixed(2);
  console.log(
    `unit and routes files, one pool against two projects: ${ratio("wall")}× the time, ${ratio("cpu")}× the CPU`,
  );
}

main();
