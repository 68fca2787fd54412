import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/shared/csv";

/** The single data cell of a one-column CSV, as written. */
const cell = (value: string | number | boolean | null | undefined) => toCsv(["h"], [[value]]).split("\r\n")[1];

describe("toCsv", () => {
  it("writes a header and CRLF-terminated rows", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["1", "2"],
          ["3", "4"],
        ],
      ),
    ).toBe("a,b\r\n1,2\r\n3,4\r\n");
  });

  it("keeps amounts exactly as the service sent them", () => {
    expect(cell("0.000000000000000001")).toBe("0.000000000000000001");
    expect(cell("99999999999999999999.5")).toBe("99999999999999999999.5");
    expect(cell("1250.50")).toBe("1250.50");
  });

  it("writes null and undefined as empty, booleans and numbers as text", () => {
    expect(toCsv(["a", "b", "c", "d"], [[null, undefined, true, 7]])).toBe("a,b,c,d\r\n,,true,7\r\n");
  });

  it.each([
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["line\nbreak", '"line\nbreak"'],
    ["cr\rhere", '"cr\rhere"'],
    ['{"desk":"fx"}', '"{""desk"":""fx""}"'],
  ])("quotes %j as RFC 4180 requires", (value, written) => {
    expect(cell(value)).toBe(written);
  });

  it.each([
    ["=1+1", `"'=1+1"`],
    ["+1", `"'+1"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["-1+1", `"'-1+1"`],
    ["-2+cmd|' /C calc'!A0", `"'-2+cmd|' /C calc'!A0"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["\t=1", `"'\t=1"`],
    ["\r=1", `"'\r=1"`],
  ])("neutralises the formula %j by prefixing a quote", (value, written) => {
    expect(cell(value)).toBe(written);
  });

  it.each(["-12", "-0.5", "-1250.50"])("leaves the plain negative number %s a number", (value) => {
    expect(cell(value)).toBe(value);
  });

  it("leaves text with = or - inside (not leading) alone", () => {
    expect(cell("a=b")).toBe("a=b");
    expect(cell("ref-123")).toBe("ref-123");
  });
});
