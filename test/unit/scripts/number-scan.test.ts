import { describe, expect, it } from "vitest";
import { ungroupedIn } from "../../support/number-scan";

describe("the scan for numbers that escaped the formatter", () => {
  it("finds amounts and prices written without grouping", () => {
    expect(ungroupedIn("come to 10765.55 USD, past the 10000 USD rule")).toEqual(["10765.55", "10000"]);
    expect(ungroupedIn("axis 65024.50")).toEqual(["65024.50"]);
    expect(ungroupedIn("4867.63848252 BTC")).toEqual(["4867.63848252"]);
  });

  it("passes over grouped numbers, short ones, identifiers, dates and times", () => {
    expect(ungroupedIn("10,765.55 USD, 2.742 BTC, 0.00, 120 USD")).toEqual([]);
    expect(ungroupedIn("ref_id t-1795772296963 profile 4406aa9c-1234-5678")).toEqual([]);
    expect(ungroupedIn("2026-11-26 17:43:47 UTC, page 1/2")).toEqual([]);
  });
});
