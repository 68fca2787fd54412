import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withStatementCache } from "@/lib/server/db/statement-cache";

describe("the prepared-statement cache", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "statements-"));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("prepares each SQL text once and runs it with new parameters each time", () => {
    const database = new SQLite(path.join(dir, "a.db"));
    database.exec("create table t (v text)");
    const prepare = vi.spyOn(database, "prepare");
    const cached = withStatementCache(database);
    for (const v of ["a", "b", "c"]) cached.prepare("insert into t (v) values (?)").run(v);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(cached.prepare("select v from t order by v").all()).toEqual([{ v: "a" }, { v: "b" }, { v: "c" }]);
    expect(prepare).toHaveBeenCalledTimes(2);
    cached.close();
    expect(database.open).toBe(false);
  });

  it("stays bounded: past its size it starts again", () => {
    const database = new SQLite(":memory:");
    const prepare = vi.spyOn(database, "prepare");
    const cached = withStatementCache(database, 2);
    for (const n of [1, 2, 3, 1]) cached.prepare(`select ${n}`);
    // 1 and 2 fill it; 3 clears it; 1 is prepared again.
    expect(prepare).toHaveBeenCalledTimes(4);
    cached.close();
  });
});
