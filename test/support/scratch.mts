import { accessSync, constants, statfsSync } from "node:fs";

/**
 * Where the tests write their scratch files: SQLite databases, DATA_DIRs and their audit
 * checkpoints, the throwaway PostgreSQL cluster, Chromium's profile. On Linux that is the
 * memory-backed /dev/shm when it has room, unless TMPDIR already names a place. On an ext4
 * disk, each SQLite checkpoint and each audit checkpoint's rename waits on the file system's
 * journal: the unit and routes projects took 1.10× the time and 1.08× the CPU there, over seven
 * runs of each taking turns (`npm run bench:scratch`). Nothing the tests assert depends on where
 * the files are.
 */
export const MEMORY_DIR = "/dev/shm";

/**
 * Room a whole `npm test` needs at most, with a margin: its peak was 324 MB (CONTRIBUTING).
 * A container's /dev/shm (64 MB by default under Docker) is too small, so the disk is used there.
 */
export const ROOM_NEEDED = 2 * 1024 ** 3;

/** Free bytes in a writable directory, or undefined when it is missing or read-only. */
export function freeBytes(dir: string): number | undefined {
  try {
    accessSync(dir, constants.W_OK);
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return undefined;
  }
}

/** The TMPDIR the tests should run with, or undefined to leave it as it is. */
export function scratchDir(
  env: Partial<Record<string, string>>,
  free: (dir: string) => number | undefined = freeBytes,
) {
  if (env.TMPDIR) return undefined;
  return (free(MEMORY_DIR) ?? 0) >= ROOM_NEEDED ? MEMORY_DIR : undefined;
}
