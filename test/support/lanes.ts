import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Which lane (shared app and browser) this test file holds. A file leases a free lane the first
 * time it asks and gives it back when it ends (test/support/lane-release.ts), so two files
 * running at once never hold the same one, whatever ids vitest gives its workers: a worker's
 * VITEST_POOL_ID is not one per running file (two isolated files were seen running with id 1).
 *
 * A lease is a directory made under the run's locks folder (mkdir is atomic), holding the
 * holder's pid: a lane whose holder has died without giving it back is taken over.
 */

let held: { dir: string; lane: number } | undefined;

/** A lane's lease: a directory under the run's locks folder. */
const leaseOf = (locksDir: string, lane: number) => join(locksDir, `lane-${lane}`);

/** This file's lane among `count`, leased now if it holds none; waits a little for one to free. */
export function leaseLane(locksDir: string, count: number, waitMs = 15_000): number {
  if (held?.dir === locksDir) return held.lane;
  const deadline = Date.now() + waitMs;
  for (;;) {
    for (let lane = 0; lane < count; lane++) {
      if (tryLease(leaseOf(locksDir, lane))) {
        held = { dir: locksDir, lane };
        return lane;
      }
    }
    // A finished file's worker may not have given its lane back yet: look again shortly.
    if (Date.now() > deadline) {
      throw new Error(`all ${count} lanes are held (${holders(locksDir, count)}): more files run at once than lanes`);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}

/** Gives this file's lane back, if it holds one. */
export function releaseLane(): void {
  if (!held) return;
  rmSync(leaseOf(held.dir, held.lane), { recursive: true, force: true });
  held = undefined;
}

function tryLease(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST" || holderAlive(lock)) return false;
    rmSync(lock, { recursive: true, force: true });
    return tryLease(lock);
  }
  writeFileSync(join(lock, "pid"), String(process.pid));
  return true;
}

/** The pid a lease holds, or undefined while it is being written. */
function holderOf(lock: string): string | undefined {
  try {
    return readFileSync(join(lock, "pid"), "utf8");
  } catch {
    return undefined;
  }
}

function holderAlive(lock: string): boolean {
  const pid = holderOf(lock);
  if (pid === undefined) return true; // just made: its pid is being written
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function holders(locksDir: string, count: number): string {
  return Array.from(
    { length: count },
    (_, lane) => `lane ${lane}: pid ${holderOf(leaseOf(locksDir, lane)) ?? "?"}`,
  ).join(", ");
}
