import { describe, expect, it } from "vitest";
import { page } from "@/lib/sandbox/http/pages";
import { matchNumberOf, TradeStats } from "@/lib/sandbox/engine/stats";

const key = (n: number) => String(n).padStart(4, "0");
const items = (n: number) => Array.from({ length: n }, (_, i) => n - i); // newest (highest) first

/** Every page of a walk that follows the cursor while there is one. */
function walk(all: number[], limit: number, order: "ASC" | "DESC" = "DESC") {
  const pages = [];
  let cursor: string | undefined;
  do {
    const p = page(all, key, limit, cursor, order);
    pages.push(p);
    cursor = p.next_page_cursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

describe("list pages, as the service pages them", () => {
  it("the last page has no next_page_cursor key at all", () => {
    const pages = walk(items(5), 2);
    expect(pages.map((p) => p.items)).toEqual([[5, 4], [3, 2], [1]]);
    expect("next_page_cursor" in pages.at(-1)!).toBe(false);
    expect(JSON.stringify(pages.at(-1))).toBe('{"items":[1]}');
  });

  it("a page shorter than the limit is the last; a full one has a cursor even when nothing follows", () => {
    const pages = walk(items(4), 2);
    expect(pages.map((p) => p.items)).toEqual([[4, 3], [2, 1], []]);
    expect(pages.map((p) => "next_page_cursor" in p)).toEqual([true, true, false]);
  });

  it("an empty list is one empty page without a cursor", () => {
    expect(page([], key, 10, undefined)).toEqual({ items: [] });
  });

  it("pages ascending lists too, the cursor holding the last key sent", () => {
    const pages = walk([1, 2, 3], 2, "ASC");
    expect(pages.map((p) => p.items)).toEqual([[1, 2], [3]]);
  });

  it("stays right when items arrive between pages", () => {
    const first = page(items(4), key, 2, undefined);
    const later = page([6, 5, ...items(4)], key, 2, first.next_page_cursor);
    expect(later.items).toEqual([2, 1]);
  });
});

describe("match numbers", () => {
  it("are alphanumeric, 12 characters, not numbers, and later ones sort after earlier ones as strings", () => {
    const stats = new TradeStats();
    const at = 1_800_000_000_000;
    for (let i = 0; i < 3; i++) stats.record(10n, 1n, 10n, at);
    stats.record(10n, 1n, 10n, at + 1);
    const numbers = stats.recent.map((t) => t.matchNumber);
    for (const n of numbers) {
      expect(n).toMatch(/^[0-9A-Z]{12}$/);
      expect(n).toMatch(/[A-Z]/);
      expect(Number.isNaN(Number(n))).toBe(true);
    }
    expect(new Set(numbers).size).toBe(4);
    expect([...numbers].sort()).toEqual(numbers);
  });

  it("differ from those of an earlier run at another time (trades are not stored)", () => {
    expect(matchNumberOf(1_800_000_000_000, 0)).not.toBe(matchNumberOf(1_800_000_000_001, 0));
  });
});
