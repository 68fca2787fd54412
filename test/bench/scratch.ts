/**
 * What the place of the tests' scratch files costs (test/support/scratch.mts): `npm run
 * test:fast` (the unit and routes projects) with TMPDIR on the disk, against TMPDIR in memory.
 * The two take turns, ROUNDS times, so a busy moment of the machine falls on both. Each run's
 * CPU is the whole machine's, from /proc/stat: the PostgreSQL cluster and the kernel's journal
 * work are not the runner's children. Linux only, like /dev/shm.
 *
 *   npm run bench:scratch            (ROUNDS=3 npm run bench:scratch for more turns)
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { MEMORY_DIR } from "../support/scratch.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 2);

/** Busy CPU seconds of the whole machine so far (every field of /proc/stat's cpu line but idle and iowait). */
function machineBusySeconds(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = new Set([3, 4]); // idle, iowait
  return ticks.slice(0, 8).reduce((sum, t, i) => (idle.has(i) ? sum : sum + t), 0) / 100; // USER_HZ
}

function timed(dir: string): { wall: number; cpu: number } {
  const cpu = machineBusySeconds();
  const start = performance.now();
  const run = spawnSync("npx", ["vitest", "run", "--project", "unit", "--project", "routes"], {
    env: { ...process.env, TMPDIR: dir },
    stdio: "ignore",
  });
  if (run.status !== 0) throw new Error(`the tests failed with TMPDIR=${dir}`);
  return { wall: (performance.now() - start) / 1000, cpu: machineBusySeconds() - cpu };
}

function main() {
  // The system's default, asked of a process whose TMPDIR is not the memory's.
  const disk = process.env.TMPDIR && process.env.TMPDIR !== MEMORY_DIR ? process.env.TMPDIR : tmpdir();
  const sum = { disk: { wall: 0, cpu: 0 }, memory: { wall: 0, cpu: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, dir] of [
      ["disk", disk],
      ["memory", MEMORY_DIR],
    ] as const) {
      const t = timed(dir);
      console.log(`round ${round + 1}, ${name} (${dir}): ${t.wall.toFixed(1)} s, ${t.cpu.toFixed(0)} CPU-s`);
      sum[name].wall += t.wall;
      sum[name].cpu += t.cpu;
    }
  }
  const ratio = (key: "wall" | "cpu") => (sum.disk[key] / sum.memory[key]).toFixed(2);
  console.log(`unit and routes projects, disk against memory: ${ratio("wall")}× the time, ${ratio("cpu")}× the CPU`);
}

main();
