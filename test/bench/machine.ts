import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Busy CPU seconds of the whole machine so far (every field of /proc/stat's cpu line but idle and
 * iowait): a run's PostgreSQL cluster and the kernel's work are not the runner's children. Linux only.
 */
export function machineBusySeconds(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = new Set([3, 4]); // idle, iowait
  return ticks.slice(0, 8).reduce((sum, t, i) => (idle.has(i) ? sum : sum + t), 0) / 100; // USER_HZ
}

/** Runs a command to its end, silently; its wall seconds and the machine's busy CPU seconds meanwhile. */
export function timedRun(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const cpu = machineBusySeconds();
  const start = performance.now();
  const run = spawnSync(command, args, { env, stdio: "ignore" });
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${run.status})`);
  return { wall: (performance.now() - start) / 1000, cpu: machineBusySeconds() - cpu };
}

/**
 * CPU seconds (user and system) of a process and everything under it, from /proc: the living
 * ones' own and what the ones already ended left in their parents' count (a closed browser
 * context's renderer, for one).
 */
export function treeCpuSeconds(root: number): number {
  const procs = new Map<number, { parent: number; ticks: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
      procs.set(Number(name), { parent: Number(fields[1]), ticks });
    } catch {
      // Gone meanwhile.
    }
  }
  const under = (pid: number): boolean => pid === root || (pid > 1 && under(procs.get(pid)?.parent ?? 0));
  const ticks = [...procs].filter(([pid]) => under(pid)).reduce((sum, [, p]) => sum + p.ticks, 0);
  return ticks / 100; // USER_HZ
}
