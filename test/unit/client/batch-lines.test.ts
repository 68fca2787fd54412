import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import {
  cellKey,
  linesOfCsv,
  linesOfPlan,
  placeErrors,
  shownLines,
  withRowsRead,
} from "@/components/batches/batch-lines";
import { describeBatch, shortBy, totalsInWords } from "@/lib/shared/describe-batch";
import { batchKeys } from "@/lib/client/batches";
import { HANDLERS } from "@/lib/client/live-events";

const CSV = [
  "From_Profile, to_profile ,asset,amount,ref_id,note",
  'Treasury,Settlement,USD,"1,250.00",,rent',
  "Treasury,Treasury,BTC,abc,r-2,",
  "",
  "",
].join("\r\n");

describe("a batch file's lines, as the preview table shows them", () => {
  it("reads each row's cells under the header's columns (trimmed, any case), without the trailing blank lines", () => {
    expect(linesOfCsv(`\uFEFF${CSV}`)).toEqual([
      {
        row: 1,
        cells: { from: "Treasury", to: "Settlement", asset: "USD", amount: "1,250.00", ref_id: "", note: "rent" },
      },
      { row: 2, cells: { from: "Treasury", to: "Treasury", asset: "BTC", amount: "abc", ref_id: "r-2", note: "" } },
    ]);
  });

  it("shows no rows for text that is not CSV, and a plan's transfers as its rows", () => {
    expect(linesOfCsv('a,"b\nc')).toEqual([]);
    expect(linesOfCsv("")).toEqual([]);
    expect(
      linesOfPlan([{ from_profile_id: "p1", to_profile_id: "p2", asset: "ETH", amount: "2" }]).map((l) => l.cells),
    ).toEqual([{ from: "p1", to: "p2", asset: "ETH", amount: "2" }]);
  });

  it("puts each error on its cell (CSV or JSON names), a whole row's on its row, and the file's above", () => {
    const lines = linesOfCsv(CSV);
    const placed = placeErrors(
      [
        { row: 0, field: "file", message: "header" },
        { row: 2, field: "to_profile", message: "self" },
        { row: 2, field: "amount", message: "bad amount" },
        { row: 2, field: "amount", message: "second" },
        { row: 1, field: "from_profile_id", message: "json name" },
        { row: 1, field: "row", message: "cell count" },
        { row: 1001, field: "file", message: "too many" },
        { row: 7, field: "amount", message: "no such line" },
      ],
      lines,
    );
    expect(placed.file.map((e) => e.message)).toEqual(["header", "too many", "no such line"]);
    expect(placed.cells.get(cellKey(2, "to"))).toEqual(["self"]);
    expect(placed.cells.get(cellKey(2, "amount"))).toEqual(["bad amount", "second"]);
    expect(placed.cells.get(cellKey(1, "from"))).toEqual(["json name"]);
    expect(placed.rows.get(1)).toEqual(["cell count"]);
  });

  it("shows every refused line, and the first of the others up to the limit", () => {
    const lines = Array.from({ length: 10 }, (_, i) => ({ row: i + 1, cells: {} }));
    const placed = placeErrors([{ row: 9, field: "asset", message: "x" }], lines);
    expect(shownLines(lines, placed, 3).map((l) => l.row)).toEqual([1, 2, 3, 9]);
  });

  it("puts the rows as read beside their lines", () => {
    const lines = linesOfCsv(CSV);
    const read = { row: 1, from_profile_id: "a", to_profile_id: "b", asset: "USD", amount: "1250.00", ref_id: "x-1" };
    expect(withRowsRead(lines, [read]).map((l) => l.read)).toEqual([read, undefined]);
  });
});

describe("a batch in words", () => {
  it("states its rows, totals and worth", () => {
    const totals = [
      { asset: "BTC", amount: "0.5" },
      { asset: "ETH", amount: "2" },
      { asset: "USD", amount: "1250" },
    ];
    expect(totalsInWords(totals)).toBe("0.5 BTC, 2 ETH and 1,250.00 USD");
    expect(describeBatch({ rows: [1, 2, 3], totals, value_usd: "40000.5" })).toBe(
      "Send 3 transfers, 0.5 BTC, 2 ETH and 1,250.00 USD in all, worth about 40,000.50 USD.",
    );
    expect(describeBatch({ rows: [1], totals: totals.slice(2), value_usd: null })).toBe(
      "Send 1 transfer, 1,250.00 USD in all.",
    );
  });

  it("marks a shortfall only when the funds are known and fall short", () => {
    expect(shortBy({ needed: "10", available: "2.5" })).toBe("7.5");
    expect(shortBy({ needed: "10", available: "10" })).toBeUndefined();
    expect(shortBy({ needed: "10", available: null })).toBeUndefined();
  });
});

describe("a batch event", () => {
  it("reads again that batch and the list, not another batch", async () => {
    const client = new QueryClient();
    client.setQueryData(batchKeys.one("b1"), { id: "b1" });
    client.setQueryData(batchKeys.one("b2"), { id: "b2" });
    client.setQueryData(batchKeys.list, []);
    HANDLERS.batch!(client, { id: "b1", status: "SENDING" });
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(batchKeys.one("b1"))).toBe(true);
    expect(stale(batchKeys.list)).toBe(true);
    expect(stale(batchKeys.one("b2"))).toBe(false);
  });
});
