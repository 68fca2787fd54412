import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/shared/csv";
import {
  anyOrderLive,
  hasFill,
  isCancellable,
  ORDER_CSV_HEADER,
  orderAmount,
  orderBadgeStatus,
  orderCsvRows,
} from "@/lib/shared/order-rows";
import { ORDER_STATUSES, type Order } from "@/lib/spec";

const order = (over: Partial<Order> = {}): Order => ({
  id: "8f1c0a52-0000-4000-8000-000000000001",
  profile_id: "p-trading",
  ref_id: "ref-1",
  status: "OPEN",
  side: "BUY",
  market: "BTCUSD",
  type: "LIMIT",
  base_amount: "0.12345678",
  price: "64000.25",
  quote_amount: "",
  metadata: { desk: "fx, rates" },
  created_at: "2025-03-01T10:00:00.000Z",
  modified_at: "2025-03-01T10:00:01.000Z",
  amount_filled: "0.00000000",
  volume_weighted_average_price: "0.00000000",
  time_in_force: "GTC",
  expiration_date: "",
  identity_id: "",
  identity_account_id: "",
  stop_price: "",
  recipient_profile_id: "",
  is_triggered: false,
  ...over,
});

describe("order status rules", () => {
  it("offers cancel for SUBMITTED and OPEN orders only", () => {
    expect(ORDER_STATUSES.filter((status) => isCancellable({ status }))).toEqual(["SUBMITTED", "OPEN"]);
  });

  it("keeps polling while any order is not final", () => {
    expect(anyOrderLive([])).toBe(false);
    expect(anyOrderLive([{ status: "FILLED" }, { status: "CANCELLED" }, { status: "REJECTED" }])).toBe(false);
    expect(anyOrderLive([{ status: "FILLED" }, { status: "PENDING_SUBMISSION" }])).toBe(true);
    expect(anyOrderLive([{ status: "SUBMITTED" }])).toBe(true);
  });
});

describe("orderAmount", () => {
  it("is the base amount in the base asset for a limit order", () => {
    expect(orderAmount(order())).toEqual({ value: "0.12345678", asset: "BTC" });
  });

  it("is the quote amount in the quote asset for a market buy", () => {
    expect(orderAmount(order({ type: "MARKET", base_amount: "", quote_amount: "1000.00", market: "ETHEUR" }))).toEqual({
      value: "1000.00",
      asset: "EUR",
    });
  });
});

describe("hasFill", () => {
  it("is false for zero in any spelling and true for the smallest fill", () => {
    expect(hasFill("0.00000000")).toBe(false);
    expect(hasFill("0")).toBe(false);
    expect(hasFill("")).toBe(false);
    expect(hasFill("0.00000001")).toBe(true);
  });
});

describe("orderCsvRows", () => {
  const submitters = new Map([["ref-1", { user_email: "trader@example.com", user_role: "trader" }]]);
  const nickname = (id: string) => (id === "p-trading" ? "Trading" : id);

  it("has one cell per header column, amounts exactly as sent", () => {
    const [row] = orderCsvRows([order()], nickname, submitters);
    expect(row).toHaveLength(ORDER_CSV_HEADER.length);
    const byName = Object.fromEntries(ORDER_CSV_HEADER.map((h, i) => [h, row![i]]));
    expect(byName).toMatchObject({
      id: "8f1c0a52-0000-4000-8000-000000000001",
      profile_id: "p-trading",
      profile: "Trading",
      base_amount: "0.12345678",
      price: "64000.25",
      amount_filled: "0.00000000",
      volume_weighted_average_price: "0.00000000",
      is_triggered: "false",
      metadata: '{"desk":"fx, rates"}',
      submitted_by: "trader@example.com",
      submitted_by_role: "trader",
    });
  });

  it("writes times in ISO 8601 UTC, whatever offset the service used", () => {
    const [row] = orderCsvRows(
      [order({ created_at: "2026-11-23T18:04:28+01:00", expiration_date: "2026-11-24T00:00:00.5Z" })],
      nickname,
      submitters,
    );
    const byName = Object.fromEntries(ORDER_CSV_HEADER.map((h, i) => [h, row![i]]));
    expect(byName.created_at).toBe("2026-11-23T17:04:28.000Z");
    expect(byName.expiration_date).toBe("2026-11-24T00:00:00.500Z");
  });

  const byName = (row: string[] | undefined) => Object.fromEntries(ORDER_CSV_HEADER.map((h, i) => [h, row![i]]));

  it("leaves submitted-by blank for an order the journal does not know", () => {
    const [row] = orderCsvRows([order({ ref_id: "made-elsewhere" })], nickname, submitters);
    expect(byName(row)).toMatchObject({ submitted_by: "", submitted_by_role: "" });
    const [noMap] = orderCsvRows([order()], nickname, undefined);
    expect(byName(noMap)).toMatchObject({ submitted_by: "", submitted_by_role: "" });
  });

  it("ends with the execution quality's columns, blank where a figure is not known", () => {
    expect(ORDER_CSV_HEADER.slice(-4)).toEqual(["arrival_mid", "fill_vwap", "slippage_bps", "market_vwap"]);
    const [row] = orderCsvRows([order()], nickname, submitters, () => ({
      arrival_mid: "64000",
      fill_vwap: "64000.25",
      slippage_bps: "0.04",
      market_vwap: null,
    }));
    expect(row).toHaveLength(ORDER_CSV_HEADER.length);
    expect(byName(row)).toMatchObject({
      arrival_mid: "64000",
      fill_vwap: "64000.25",
      slippage_bps: "0.04",
      market_vwap: "",
    });
    const [without] = orderCsvRows([order()], nickname, submitters);
    expect(without!.slice(-4)).toEqual(["", "", "", ""]);
  });

  it("survives the trip through toCsv with metadata quoted", () => {
    const csv = toCsv(ORDER_CSV_HEADER, orderCsvRows([order()], nickname, submitters));
    const [header, line] = csv.split("\r\n");
    expect(header).toBe(ORDER_CSV_HEADER.join(","));
    expect(line).toContain(',"{""desk"":""fx, rates""}",trader@example.com,trader');
  });
});

describe("orderBadgeStatus", () => {
  const gtt = (over: Partial<Order>) =>
    order({
      time_in_force: "GTT",
      status: "CANCELLED",
      expiration_date: "2026-11-23T17:00:00.000Z",
      modified_at: "2026-11-23T17:00:00.000Z",
      ...over,
    });

  it("shows EXPIRED for a GTT order the service cancelled at or after its expiry", () => {
    expect(orderBadgeStatus(gtt({}))).toBe("EXPIRED");
    expect(orderBadgeStatus(gtt({ modified_at: "2026-11-23T17:00:01.500Z" }))).toBe("EXPIRED");
    // Expiry sent as 13 digits of milliseconds reads the same.
    expect(orderBadgeStatus(gtt({ expiration_date: String(Date.parse("2026-11-23T17:00:00Z")) }))).toBe("EXPIRED");
  });

  it("keeps CANCELLED for a GTT order cancelled before its expiry, and every other status as it is", () => {
    expect(orderBadgeStatus(gtt({ modified_at: "2026-11-23T16:59:59.999Z" }))).toBe("CANCELLED");
    expect(orderBadgeStatus(gtt({ time_in_force: "GTC", expiration_date: "" }))).toBe("CANCELLED");
    expect(orderBadgeStatus(gtt({ status: "FILLED" }))).toBe("FILLED");
    expect(orderBadgeStatus(gtt({ expiration_date: "" }))).toBe("CANCELLED");
  });
});
