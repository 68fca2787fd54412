import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { leaseLane, releaseLane } from "../../support/lanes";

/** A pid no process has: one that has just exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

function heldBy(dir: string, lane: number, pid: number) {
  mkdirSync(join(dir, `lane-${lane}`));
  writeFileSync(join(dir, `lane-${lane}`, "pid"), String(pid));
}

describe("a file's lane", () => {
  let dir: string;
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), "lanes-test-"))));
  afterEach(() => {
    releaseLane();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is the first free one, the same each time the file asks, and free again once given back", () => {
    expect(leaseLane(dir, 2)).toBe(0);
    expect(leaseLane(dir, 2)).toBe(0);
    expect(readFileSync(join(dir, "lane-0", "pid"), "utf8")).toBe(String(process.pid));
    releaseLane();
    heldBy(dir, 1, process.ppid);
    expect(leaseLane(dir, 2)).toBe(0);
  });

  it("passes over a lane a running file holds", () => {
    heldBy(dir, 0, process.ppid);
    expect(leaseLane(dir, 2)).toBe(1);
  });

  it("takes over a lane whose holder died without giving it back", () => {
    heldBy(dir, 0, process.ppid);
    heldBy(dir, 1, deadPid());
    expect(leaseLane(dir, 2)).toBe(1);
    expect(readFileSync(join(dir, "lane-1", "pid"), "utf8")).toBe(String(process.pid));
  });

  it("refuses, naming the holders, when every lane stays held", () => {
    heldBy(dir, 0, process.ppid);
    heldBy(dir, 1, process.ppid);
    expect(() => leaseLane(dir, 2, 300)).toThrow(
      `all 2 lanes are held (lane 0: pid ${process.ppid}, lane 1: pid ${process.ppid})`,
    );
  });
});
