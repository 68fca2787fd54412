import { describe, expect, it } from "vitest";
import { byDecimal, orderCompare } from "@/lib/shared/list-routes";
import type { Order } from "@/lib/spec";

const o = (id: string, over: Partial<Order>) =>
  ({ id, base_amount: "", quote_amount: "", price: "", ...over }) as Order;
const ids = (orders: Order[]) => orders.map((x) => x.id);

describe("sorting within one asset", () => {
  it("compares decimals exactly, either way, blanks always last", () => {
    const values = [{ v: "10" }, { v: "" }, { v: "9.99" }, { v: "100.000000000000000001" }, { v: "100" }];
    const asc = [...values].sort(byDecimal((x) => x.v, "asc")).map((x) => x.v);
    const desc = [...values].sort(byDecimal((x) => x.v, "desc")).map((x) => x.v);
    expect(asc).toEqual(["9.99", "10", "100", "100.000000000000000001", ""]);
    expect(desc).toEqual(["100.000000000000000001", "100", "10", "9.99", ""]);
  });

  it("sorts amounts in the base asset first, then a market buy's quote amounts, each in order", () => {
    const orders = [
      o("quote-50", { quote_amount: "50.00" }),
      o("base-2", { base_amount: "2" }),
      o("quote-5", { quote_amount: "5.00" }),
      o("base-0.5", { base_amount: "0.5" }),
    ];
    expect(ids([...orders].sort(orderCompare("amount", "desc")))).toEqual([
      "base-2",
      "base-0.5",
      "quote-50",
      "quote-5",
    ]);
    expect(ids([...orders].sort(orderCompare("amount", "asc")))).toEqual(["base-0.5", "base-2", "quote-5", "quote-50"]);
  });

  it("keeps the service's order (newest first) between equal values", () => {
    const orders = [o("newer", { price: "1.00" }), o("market", {}), o("older", { price: "1.0" })];
    expect(ids([...orders].sort(orderCompare("price", "asc")))).toEqual(["newer", "older", "market"]);
  });
});
