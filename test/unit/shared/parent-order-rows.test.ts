import { describe, expect, it } from "vitest";
import { parentChartData } from "@/lib/shared/parent-chart";
import {
  filledPercent,
  isOlderParent,
  isParentRow,
  parentMatches,
  slicesSentWords,
  withParentRows,
  type ParentRow,
} from "@/lib/shared/parent-order-rows";
import type { Execution } from "@/lib/shared/service-shapes";
import type { Order } from "@/lib/spec/order";
import { childFixture, parentFixture } from "../../support/parent-fixture";

/**
 * TWAP parent orders in the orders table (issue 29): each parent a row with its children beneath
 * it, the children taken out of the service's list wherever it lists them; and what the parent's
 * chart draws.
 */

type Row = Order | { approval_id: string };
const order = (id: string, ref_id: string, over: Partial<Order> = {}) =>
  ({
    id,
    ref_id,
    status: "FILLED",
    amount_filled: "0.03333333",
    volume_weighted_average_price: "60010",
    ...over,
  }) as Order;
const isOrder = (r: Row): r is Row & Order => !("approval_id" in r);
const held = { approval_id: "a-1" };
const first = { filters: {}, firstPage: true, isOrder };

describe("the orders table's rows with parent orders", () => {
  it("draws held requests, then each parent with the children it sent, then the other orders; no child twice", () => {
    const parent = parentFixture();
    const rows: Row[] = [held, order("o-9", "desk-9"), order("order-1", "twap-1-1"), order("o-8", "desk-8")];
    const out = withParentRows(rows, [parent], first);
    expect(out.map((r) => (isParentRow(r) ? `parent ${r.parent.id}` : "approval_id" in r ? "held" : r.id))).toEqual([
      "held",
      `parent ${parent.id}`,
      "o-9",
      "o-8",
    ]);
    const row = out[1] as ParentRow;
    // The two slices sent, not the four still scheduled.
    expect(row.children.map((c) => c.ref_id)).toEqual(["twap-1-1", "twap-1-2"]);
    // The service's order listed on the page speaks for its child.
    expect(row.children[0]!.order?.id).toBe("order-1");
    expect(row.children[1]!.order).toBeUndefined();
  });

  it("takes a child out of a later page too, where its parent is not drawn again", () => {
    const rows: Row[] = [order("order-2", "twap-1-2"), order("o-1", "desk-1")];
    const out = withParentRows(rows, [parentFixture()], { ...first, firstPage: false });
    expect(out).toEqual([order("o-1", "desk-1")]);
  });

  it("takes the service's status and fill for a child over the parent's record of it", () => {
    const rows: Row[] = [order("order-2", "twap-1-2", { status: "CANCELLED", amount_filled: "0.01" })];
    const [row] = withParentRows(rows, [parentFixture()], first) as ParentRow[];
    expect(row!.children[1]).toMatchObject({ status: "CANCELLED", amount_filled: "0.01", average_price: "60010" });
  });

  it("keeps an order whose ref_id only looks like a child's", () => {
    const rows: Row[] = [order("o-1", "twap-1-7"), order("o-2", "twap-10-1")];
    expect(withParentRows(rows, [parentFixture()], first).filter((r) => !isParentRow(r))).toEqual(rows);
  });

  it("leaves the rows as they are without parents", () => {
    const rows: Row[] = [held, order("o-1", "twap-1-1")];
    expect(withParentRows(rows, [], first)).toEqual(rows);
  });

  it("answers the table's filters: profile, market, side, limit orders, the parent's status or a child's", () => {
    const p = parentFixture();
    expect(parentMatches(p, {})).toBe(true);
    expect(parentMatches(p, { profile_id: "trading", market: "BTCUSD", side: "BUY", type: "LIMIT" })).toBe(true);
    expect(parentMatches(p, { profile_id: "treasury" })).toBe(false);
    expect(parentMatches(p, { market: "ETHUSD" })).toBe(false);
    expect(parentMatches(p, { side: "SELL" })).toBe(false);
    expect(parentMatches(p, { type: "MARKET" })).toBe(false);
    expect(parentMatches(p, { status: "WORKING" })).toBe(true);
    expect(parentMatches(p, { status: "FILLED" })).toBe(true);
    expect(parentMatches(p, { status: "REJECTED" })).toBe(false);
    const filtered = withParentRows([], [p], { ...first, filters: { side: "SELL" } });
    expect(filtered).toEqual([]);
  });

  it("says how far a parent has come", () => {
    expect(filledPercent(parentFixture())).toBe(16);
    expect(filledPercent(parentFixture({ filled_base: "0.2" }))).toBe(100);
    expect(filledPercent(parentFixture({ filled_base: "0" }))).toBe(0);
    expect(slicesSentWords(parentFixture())).toBe("2 of 6 slices sent");
  });
});

describe("a parent's state pushed and read", () => {
  const sent = (n: number) => childFixture(n, { sent_at: "2026-11-27T12:00:30.000Z", status: "FILLED" });
  it("never goes back: fewer children sent, fewer settled, less filled, or open after closed is older", () => {
    const now = parentFixture();
    expect(isOlderParent(parentFixture({ children: now.children.slice(0, 1) }), now)).toBe(true);
    expect(isOlderParent(now, parentFixture({ children: [...now.children.slice(0, 2), sent(3)] }))).toBe(true);
    expect(isOlderParent(now, parentFixture({ status: "CANCELLED" }))).toBe(true);
    const settled = parentFixture({
      children: now.children.map((c) => (c.n === 2 ? { ...c, status: "CANCELLED" } : c)),
    });
    expect(isOlderParent(now, settled)).toBe(true);
    expect(isOlderParent(now, parentFixture({ filled_base: "0.05" }))).toBe(true);
  });

  it("takes a pause or a resume, which changes none of those, as the newer either way", () => {
    const working = parentFixture();
    const paused = parentFixture({ status: "PAUSED" });
    expect(isOlderParent(paused, working)).toBe(false);
    expect(isOlderParent(working, paused)).toBe(false);
  });
});

describe("the parent's chart", () => {
  const trade = (at: string, price: string): Execution =>
    ({ executed_at: at, price, amount: "0.01", match_number: at }) as unknown as Execution;

  it("draws the market's trades over its life, and each child's fill as a marker on the line", () => {
    const p = parentFixture();
    const { points, markers } = parentChartData(p, [
      trade("2026-11-27T11:00:00.000Z", "59000"), // an hour before: not in its life
      trade("2026-11-27T11:59:55.000Z", "60000"), // within a tenth of its duration before it
      trade("2026-11-27T12:00:05.000Z", "60020"),
      trade("2026-11-27T12:02:00.000Z", "60100"), // after its end
    ]);
    const second = (iso: string) => Date.parse(iso) / 1000;
    expect(markers).toEqual([{ time: second("2026-11-27T12:00:00.000Z"), price: "60010", n: 1, amount: "0.03333333" }]);
    // The marker's second had no trade listed: the child's own price gives it a place on the line.
    expect(points).toEqual([
      { time: second("2026-11-27T11:59:55.000Z"), price: "60000" },
      { time: second("2026-11-27T12:00:00.000Z"), price: "60010" },
      { time: second("2026-11-27T12:00:05.000Z"), price: "60020" },
    ]);
  });

  it("marks no child that has not filled, and draws nothing without trades or fills", () => {
    const p = parentFixture({ children: [childFixture(1), childFixture(2, { sent_at: "2026-11-27T12:00:10.000Z" })] });
    expect(parentChartData(p, [])).toEqual({ points: [], markers: [] });
  });
});
