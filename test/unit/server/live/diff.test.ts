import { describe, expect, it } from "vitest";
import { RecordTracker, ValueTracker } from "@/lib/server/live/diff";

type Rec = { id: string; status: string; filled?: string };
const tracker = () => new RecordTracker<Rec>((r) => r.status === "FILLED");

describe("RecordTracker", () => {
  it("learns the first page without announcing it, then announces new and changed records only", () => {
    const t = tracker();
    expect(t.page([{ id: "a", status: "OPEN" }])).toEqual([]);
    const changed = t.page([
      { id: "b", status: "OPEN" },
      { id: "a", status: "OPEN", filled: "0.5" },
    ]);
    expect(changed.map((r) => r.id)).toEqual(["b", "a"]);
    expect(
      t.page([
        { id: "b", status: "OPEN" },
        { id: "a", status: "OPEN", filled: "0.5" },
      ]),
    ).toEqual([]);
  });

  it("follows open records that fell off the newest page until they are final", () => {
    const t = tracker();
    t.page([
      { id: "a", status: "OPEN" },
      { id: "f", status: "FILLED" },
    ]);
    const page = [{ id: "z", status: "FILLED" }];
    t.page(page);
    expect(t.openOffPage(page).map((r) => r.id)).toEqual(["a"]);
    expect(t.note({ id: "a", status: "FILLED" })).toBe(true);
    expect(t.openOffPage(page)).toEqual([]);
  });

  it("does not announce again a record it was told about (a create pushed at once)", () => {
    const t = tracker();
    t.page([]);
    expect(t.note({ id: "n", status: "OPEN" })).toBe(true);
    expect(t.page([{ id: "n", status: "OPEN" }])).toEqual([]);
  });

  it("forgets a record the service no longer has", () => {
    const t = tracker();
    t.page([{ id: "a", status: "OPEN" }]);
    t.forget("a");
    expect(t.openOffPage([])).toEqual([]);
  });
});

describe("ValueTracker", () => {
  it("reports a value once per change, per key", () => {
    const v = new ValueTracker();
    expect(v.changed("BTCUSD", { bid: "1" })).toBe(true);
    expect(v.changed("BTCUSD", { bid: "1" })).toBe(false);
    expect(v.changed("ETHUSD", { bid: "1" })).toBe(true);
    expect(v.changed("BTCUSD", { bid: "2" })).toBe(true);
    v.retain(new Set(["ETHUSD"]));
    expect(v.changed("BTCUSD", { bid: "2" })).toBe(true);
  });
});
