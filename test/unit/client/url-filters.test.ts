import { describe, expect, it } from "vitest";
import { filtersFrom, withFilters } from "@/lib/client/url-filters";

const SPEC = { market: ["BTCUSD", "ETHUSD"], side: ["BUY", "SELL"], profile_id: null } as const;

describe("filters in the URL", () => {
  it("reads each filter the spec names, blank when absent", () => {
    expect(filtersFrom(new URLSearchParams("market=ETHUSD&other=x"), SPEC)).toEqual({
      market: "ETHUSD",
      side: "",
      profile_id: "",
    });
  });

  it("reads a value the filter does not accept as blank, so a hand-edited link asks for nothing refused", () => {
    expect(filtersFrom(new URLSearchParams("market=DOGEUSD&side=sell&profile_id=any-id"), SPEC)).toEqual({
      market: "",
      side: "",
      profile_id: "any-id",
    });
  });

  it("writes set filters, removes blank ones, keeps every other parameter", () => {
    const next = withFilters(new URLSearchParams("market=ETHUSD&side=BUY&keep=1"), { side: "SELL", market: "" });
    expect(next.toString()).toBe("side=SELL&keep=1");
  });
});
