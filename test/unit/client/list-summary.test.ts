import { describe, expect, it } from "vitest";
import { listSummary } from "@/lib/shared/list-summary";

const noun = ["order", "orders"] as const;

describe("the line under a table", () => {
  it("says how many a page shows and whether more follow, with no total the service never gave", () => {
    expect(listSummary({ shown: 25, noun, hasNext: true })).toBe("25 orders shown · more on the next page");
    expect(listSummary({ shown: 1, noun, hasNext: false })).toBe("1 order shown");
  });

  it("for a list the back end walked, says how many matched of how many read", () => {
    expect(listSummary({ shown: 4, noun, hasNext: false, scanned: 34 })).toBe("4 orders matched of 34 read");
    expect(listSummary({ shown: 25, noun, hasNext: true, scanned: 1200 })).toBe(
      "25 orders matched of 1,200 read · more on the next page",
    );
    expect(listSummary({ shown: 0, noun, hasNext: true, scanned: 5000, truncated: true })).toBe(
      "0 orders matched of 5,000 read · stopped reading there; Next reads on",
    );
  });
});
