import { describe, expect, it } from "vitest";
import { listPage, servicePage } from "@/lib/server/lists/list-page";
import {
  decodeListCursor,
  encodeListCursor,
  sortedPage,
  walkAll,
  walkPage,
  type FetchPage,
} from "@/lib/server/lists/page-walk";

/**
 * A service list of `n` records, newest first, paged as the service pages: the cursor is the
 * position after the last record sent. Records what each call asked for.
 */
function service(n: number) {
  const records = Array.from({ length: n }, (_, i) => ({ seq: n - i, side: (n - i) % 5 === 0 ? "SELL" : "BUY" }));
  const calls: { cursor: string | undefined; limit: number }[] = [];
  const pages: FetchPage<(typeof records)[number]> = async (cursor, limit) => {
    calls.push({ cursor, limit });
    const start = cursor === undefined ? 0 : records.findIndex((r) => r.seq < Number(cursor));
    const items = start < 0 ? [] : records.slice(start, start + limit);
    const more = start >= 0 && start + limit < records.length;
    return { items, next_page_cursor: more ? String(items[items.length - 1]!.seq) : "" };
  };
  return { records, calls, pages };
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

const isSell = (r: { side: string }) => r.side === "SELL";

describe("walkPage", () => {
  it("finds matches across the service's pages and resumes exactly where it stopped", async () => {
    const s = service(40); // SELL: 40, 35, 30, ..., 5
    const first = await walkPage(s.pages, isSell, { skip: 0, batch: 7 }, 3);
    expect(first.items.map((r) => r.seq)).toEqual([40, 35, 30]);
    expect(first.scanned).toBe(11);
    expect(first.truncated).toBe(false);
    const second = await walkPage(s.pages, isSell, first.next!, 3);
    expect(second.items.map((r) => r.seq)).toEqual([25, 20, 15]);
    const third = await walkPage(s.pages, isSell, second.next!, 3);
    expect(third.items.map((r) => r.seq)).toEqual([10, 5]);
    expect(third.next).toBeNull();
    // Every record read once in all: 40 in total, none skipped, none twice.
    expect(first.scanned + second.scanned + third.scanned).toBe(40);
  });

  it("stops at the cap with what it has, says so, and the next walk reads on", async () => {
    const s = service(40);
    const capped = await walkPage(s.pages, (r) => r.seq < 3, { skip: 0, batch: 10 }, 5, 25);
    expect(capped).toMatchObject({ items: [], scanned: 25, truncated: true });
    const rest = await walkPage(s.pages, (r) => r.seq < 3, capped.next!, 5, 25);
    expect(rest.items.map((r) => r.seq)).toEqual([2, 1]);
    expect(rest).toMatchObject({ scanned: 15, truncated: false, next: null });
  });

  it("reaching the cap exactly at the last record is the end, not a truncation", async () => {
    const s = service(20);
    const page = await walkPage(s.pages, () => false, { skip: 0, batch: 10 }, 5, 20);
    expect(page).toMatchObject({ items: [], scanned: 20, truncated: false, next: null });
  });

  it("unfiltered, one page of the service is one page of the table", async () => {
    const s = service(30);
    const page = await walkPage(s.pages, () => true, { skip: 0, batch: 10 }, 10);
    expect(page.items.map((r) => r.seq)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21]);
    expect(s.calls).toEqual([{ cursor: undefined, limit: 10 }]);
    expect(page.next).toEqual({ page: "21", skip: 0, batch: 10 });
  });
});

describe("walkAll", () => {
  it("yields each page's matches and reports what it read", async () => {
    const s = service(25);
    const walk = walkAll(s.pages, isSell, 1000, 10);
    const batches: number[][] = [];
    let step = await walk.next();
    while (!step.done) {
      batches.push(step.value.map((r) => r.seq));
      step = await walk.next();
    }
    expect(batches).toEqual([[25, 20], [15, 10], [5]]);
    expect(step.value).toEqual({ scanned: 25, truncated: false });
  });

  it("stops at the cap and says it was cut short", async () => {
    const s = service(25);
    const walk = walkAll(s.pages, () => true, 12, 10);
    let n = 0;
    let step = await walk.next();
    while (!step.done) {
      n += step.value.length;
      step = await walk.next();
    }
    expect(n).toBe(12);
    expect(step.value).toEqual({ scanned: 12, truncated: true });
    expect(s.calls.map((c) => c.limit)).toEqual([10, 2]);
  });
});

describe("sortedPage", () => {
  it("sorts every match, not one page of them, and pages through the sorted list", async () => {
    const s = service(30);
    const bySeqAsc = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;
    const first = await sortedPage(s.pages, isSell, bySeqAsc, 0, 4);
    expect(first.items.map((r) => r.seq)).toEqual([5, 10, 15, 20]);
    expect(first.next).toBe(4);
    const second = await sortedPage(s.pages, isSell, bySeqAsc, first.next!, 4);
    expect(second.items.map((r) => r.seq)).toEqual([25, 30]);
    expect(second.next).toBeNull();
  });
});

describe("the list cursor", () => {
  it("is good only for the query that issued it", () => {
    const cursor = encodeListCursor({ query: '{"side":"SELL"}', at: { page: "p", skip: 3, batch: 1000 } });
    expect(decodeListCursor(cursor, '{"side":"SELL"}')).toEqual({
      query: '{"side":"SELL"}',
      at: { page: "p", skip: 3, batch: 1000 },
    });
    const refused = (message: RegExp) => ({
      problem: { status: 400, meta: { errors: [{ field: "cursor", message: expect.stringMatching(message) }] } },
    });
    expect(thrownBy(() => decodeListCursor(cursor, '{"side":"BUY"}'))).toMatchObject(refused(/other filters/));
    for (const bad of [
      "not-a-cursor",
      encodeListCursor({ query: "q", at: { skip: -1, batch: 10 } }),
      encodeListCursor({ query: "q", at: { skip: 0, batch: 5000 } }),
      Buffer.from(JSON.stringify({ query: "q" })).toString("base64url"),
    ]) {
      expect(thrownBy(() => decodeListCursor(bad, "q"))).toMatchObject(refused(/not valid/));
    }
  });
});

describe("listPage", () => {
  it("walks with the service's largest pages when it filters, and pages through with its own cursor", async () => {
    const s = service(40);
    const first = await listPage({ pages: s.pages, matches: isSell, limit: 5, query: "sell" });
    expect(first.items.map((r) => r.seq)).toEqual([40, 35, 30, 25, 20]);
    expect(s.calls[0]).toEqual({ cursor: undefined, limit: 1000 });
    const second = await listPage({
      pages: s.pages,
      matches: isSell,
      limit: 5,
      query: "sell",
      cursor: first.next_cursor!,
    });
    expect(second.items.map((r) => r.seq)).toEqual([15, 10, 5]);
    expect(second).toMatchObject({ next_cursor: null, scanned: 40 - first.scanned, truncated: false });
  });

  it("unfiltered, asks the service for just the page", async () => {
    const s = service(40);
    const page = await listPage({ pages: s.pages, limit: 25, query: "all" });
    expect(page.items).toHaveLength(25);
    expect(s.calls).toEqual([{ cursor: undefined, limit: 25 }]);
    expect(page.next_cursor).toEqual(expect.any(String));
  });
});

/**
 * Pages as a service may answer them, scripted: each call gets the next one (the last one again
 * once they run out). A walk that asks more than 20 times is asking forever: it throws.
 */
function scripted(pages: { items: number[]; next_page_cursor?: string }[]) {
  const calls: { cursor: string | undefined; limit: number }[] = [];
  const fetchPage: FetchPage<number> = async (cursor, limit) => {
    calls.push({ cursor, limit });
    if (calls.length > 20) throw new Error("the walk keeps asking");
    return pages[Math.min(calls.length - 1, pages.length - 1)]!;
  };
  return { calls, fetchPage };
}

const everything = () => true;

async function drain<T>(walk: AsyncGenerator<T[], { scanned: number; truncated: boolean }>) {
  const seen: T[] = [];
  let step = await walk.next();
  while (!step.done) {
    seen.push(...step.value);
    step = await walk.next();
  }
  return { seen, end: step.value };
}

describe("where a walk ends", () => {
  const ten = Array.from({ length: 10 }, (_, i) => i);

  it("ends on a page without the next_page_cursor key (the service's last page)", async () => {
    const s = scripted([{ items: ten }, { items: [99] }]);
    const page = await walkPage(s.fetchPage, everything, { skip: 0, batch: 10 }, 50);
    expect(page).toMatchObject({ items: ten, next: null, scanned: 10, truncated: false });
    expect(s.calls).toHaveLength(1);
    const all = await drain(walkAll(scripted([{ items: ten }, { items: [99] }]).fetchPage, everything, 1000, 10));
    expect(all).toEqual({ seen: ten, end: { scanned: 10, truncated: false } });
  });

  it("ends on an empty page, even one that carries a cursor", async () => {
    const pages = [
      { items: ten, next_page_cursor: "p2" },
      { items: [], next_page_cursor: "p3" },
    ];
    const s = scripted(pages);
    const page = await walkPage(s.fetchPage, (n) => n > 100, { skip: 0, batch: 10 }, 5);
    expect(page).toMatchObject({ items: [], next: null, scanned: 10, truncated: false });
    expect(s.calls.map((c) => c.cursor)).toEqual([undefined, "p2"]);
    const all = await drain(walkAll(scripted(pages).fetchPage, everything, 1000, 10));
    expect(all).toEqual({ seen: ten, end: { scanned: 10, truncated: false } });
    const sorted = await sortedPage(scripted(pages).fetchPage, everything, (a, b) => b - a, 0, 3);
    expect(sorted).toMatchObject({ items: [9, 8, 7], scanned: 10, truncated: false });
  });

  it("ends on a page shorter than the limit asked, whatever cursor it carries", async () => {
    const pages = [
      { items: ten, next_page_cursor: "p2" },
      { items: [10, 11], next_page_cursor: "p3" },
      { items: [12] },
    ];
    const s = scripted(pages);
    const page = await walkPage(s.fetchPage, (n) => n > 100, { skip: 0, batch: 10 }, 5);
    expect(page).toMatchObject({ items: [], next: null, scanned: 12 });
    expect(s.calls).toHaveLength(2);
    const all = await drain(walkAll(scripted(pages).fetchPage, everything, 1000, 10));
    expect(all.seen).toEqual([...ten, 10, 11]);
    // The same page once more when the limit asked is the cap's remainder: short of that, it is the last.
    const capped = scripted([{ items: [1, 2, 3], next_page_cursor: "p2" }, { items: [4] }]);
    expect((await drain(walkAll(capped.fetchPage, everything, 5, 3))).end).toEqual({ scanned: 4, truncated: false });
    expect(capped.calls.map((c) => c.limit)).toEqual([3, 2]);
  });

  it("ends when the cursor does not move, and says where a resumed walk stands", async () => {
    const s = scripted([{ items: ten, next_page_cursor: "same" }]);
    const page = await walkPage(s.fetchPage, (n) => n > 100, { page: "same", skip: 0, batch: 10 }, 5);
    expect(page).toMatchObject({ items: [], next: null, scanned: 10 });
    expect(s.calls).toHaveLength(1);
    // A page cut mid-way resumes on the same page; the walk's next page is the cursor it was given.
    const full = scripted([{ items: ten, next_page_cursor: "p2" }, { items: [10] }]);
    const first = await walkPage(full.fetchPage, everything, { skip: 0, batch: 10 }, 4);
    expect(first.next).toEqual({ skip: 4, batch: 10 });
  });

  it("a page of the service parsed: an absent, empty or null cursor is no cursor; no items is a 502", () => {
    expect(servicePage({ items: [1] }, "/orders")).toEqual({ items: [1] });
    expect(servicePage({ items: [1], next_page_cursor: "" }, "/orders")).toEqual({ items: [1] });
    expect(servicePage({ items: [1], next_page_cursor: null }, "/orders")).toEqual({ items: [1] });
    expect(servicePage({ items: [], next_page_cursor: "c" }, "/orders")).toEqual({ items: [], next_page_cursor: "c" });
    expect(thrownBy(() => servicePage({ orders: [] }, "/orders"))).toMatchObject({
      problem: { status: 502, detail: expect.stringContaining("/orders") },
    });
  });
});
