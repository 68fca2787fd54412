import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCsv, toCsv } from "@/lib/shared/csv";

const records = (text: string) => {
  const read = readCsv(text);
  if (!read.ok) throw new Error(`refused: ${read.message}`);
  return read.records;
};

describe("readCsv", () => {
  it("reads plain cells, with CRLF, LF or a lone CR between records, and a final line break or none", () => {
    const want = [
      ["a", "b"],
      ["1", "2"],
    ];
    for (const text of ["a,b\r\n1,2\r\n", "a,b\n1,2\n", "a,b\r1,2", "a,b\n1,2"]) expect(records(text)).toEqual(want);
  });

  it("reads quoted cells holding commas, line breaks and doubled quotes", () => {
    expect(records('"1,250.00","line\r\nbreak","say ""hi""",""\n')).toEqual([
      ["1,250.00", "line\r\nbreak", 'say "hi"', ""],
    ]);
  });

  it("keeps empty cells, a trailing comma's included, and reads a blank line as one empty cell", () => {
    expect(records(",a,\n\nb,")).toEqual([["", "a", ""], [""], ["b", ""]]);
  });

  it("keeps a quote inside an unquoted cell as written", () => {
    expect(records('5" pipe,x')).toEqual([['5" pipe', "x"]]);
  });

  it("reads nothing from an empty text", () => {
    expect(records("")).toEqual([]);
  });

  it("refuses a quoted cell never closed, naming its record", () => {
    expect(readCsv('a,b\n1,"2\n3,4\n')).toEqual({
      ok: false,
      record: 1,
      message: expect.stringContaining("never closed") as string,
    });
  });

  it("refuses text after a closing quote, naming its record", () => {
    expect(readCsv('a\n"x"y\n')).toEqual({
      ok: false,
      record: 1,
      message: expect.stringContaining("after its closing quote") as string,
    });
  });

  it("reads back what toCsv writes", () => {
    // toCsv prefixes a cell a spreadsheet would run as a formula: those are left out here.
    const cell = fc.string({ unit: "grapheme", maxLength: 12 }).filter((s) => !/^[=+\-@\t\r]/.test(s));
    const table = fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { maxLength: 5 });
    fc.assert(
      fc.property(table, (rows) => {
        expect(records(toCsv(["h1", "h2"], rows))).toEqual([["h1", "h2"], ...rows]);
      }),
      { seed: 27, numRuns: 300 },
    );
  });
});
