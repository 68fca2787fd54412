/**
 * What the place of the tests' scratch files costs (test/support/scratch.mts): `npm run
 * test:fast` (the unit and routes files) with TMPDIR on the disk, against TMPDIR in memory.
 * The two take turns, ROUNDS times, so a busy moment of the machine falls on both. Each run's
 * CPU is the whole machine's, from /proc/stat: the PostgreSQL cluster and the kernel's journal
 * work are not the runner's children. Linux only, like /dev/shm.
 *
 *   npm run bench:scratch            (ROUNDS=3 npm run bench:scratch for more turns)
 */
import { tmpdir } from "node:os";
import { MEMORY_DIR } from "../support/scratch.mjs";
import { timedRun } from "./machine";

const ROUNDS = Number(process.env.ROUNDS ?? 2);

function timed(dir: string): { wall: number; cpu: number } {
  return timedRun("npm", ["run", "--silent", "test:fast"], { ...process.env, TMPDIR: dir });
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
  console.log(`unit and routes files, disk against memory: ${ratio("wall")}× the time, ${ratio("cpu")}× the CPU`);
}

main();
