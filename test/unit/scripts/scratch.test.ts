import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freeBytes, MEMORY_DIR, ROOM_NEEDED, scratchDir } from "../../support/scratch.mjs";

describe("where the tests write their scratch files", () => {
  it("in memory when /dev/shm has room for a whole run", () => {
    expect(scratchDir({}, (dir) => (dir === MEMORY_DIR ? ROOM_NEEDED : undefined))).toBe(MEMORY_DIR);
  });

  it("leaves TMPDIR alone when it is set, and the system's default when memory has no room or is missing", () => {
    expect(scratchDir({ TMPDIR: "/var/scratch" }, () => ROOM_NEEDED * 10)).toBeUndefined();
    // A container's default /dev/shm: 64 MB.
    expect(scratchDir({}, () => 64 * 1024 ** 2)).toBeUndefined();
    expect(scratchDir({}, () => undefined)).toBeUndefined();
  });

  it("counts the free bytes of a writable directory, and none of a missing one", () => {
    const dir = mkdtempSync(join(tmpdir(), "scratch-"));
    try {
      expect(freeBytes(dir)).toBeGreaterThan(0);
      expect(freeBytes(join(dir, "missing"))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
