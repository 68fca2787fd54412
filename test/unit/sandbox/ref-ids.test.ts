import { describe, expect, it } from "vitest";
import { RefIds } from "@/lib/sandbox/engine/ref-ids";

describe("RefIds", () => {
  it("keys a ref_id by its customer: the same ref_id of two customers names two records", () => {
    const records = new Map([
      ["o-1", "first"],
      ["o-2", "second"],
    ]);
    const refs = new RefIds(records);
    refs.bind("c1", "r-1", "o-1");
    refs.bind("c2", "r-1", "o-2");
    expect(refs.find("c1", "r-1")).toBe("first");
    expect(refs.find("c2", "r-1")).toBe("second");
    expect(refs.find("c3", "r-1")).toBeUndefined();
  });

  it("cannot be fooled by a customer id and ref_id that run together", () => {
    const refs = new RefIds(new Map([["o-1", "first"]]));
    refs.bind("c1", "2r", "o-1");
    expect(refs.find("c12", "r")).toBeUndefined();
  });

  it("finds nothing once the record is no longer kept", () => {
    const records = new Map([["o-1", "first"]]);
    const refs = new RefIds(records);
    refs.bind("c1", "r-1", "o-1");
    records.delete("o-1");
    expect(refs.find("c1", "r-1")).toBeUndefined();
  });
});
