import { describe, expect, it } from "vitest";
import { existingRecordOf, isSameOrder, isSameTransfer, sameAmount } from "@/lib/server/upstream/same-record";

/**
 * Records compared by meaning, on fixtures written from the published reference's examples
 * and their quirks: an unused amount is "" in Create Order's answer and "0" in List Orders',
 * a 409's `meta.existing` leaves fields out, a transfer's amount comes back as "10".
 */

const PROFILE = "5d0c5f8e-3a3b-4c1e-9a57-0f7d2b9e8a11";
const OTHER_PROFILE = "a61f0b2c-7d4e-4f80-8c3b-2e9d1a6b5c70";

/** A limit buy as the ticket sends it. */
const limitBuy = {
  ref_id: "desk-1",
  side: "BUY",
  market: "ETHUSD",
  type: "LIMIT",
  price: "190.23",
  base_amount: "2.5",
};
/** A market buy: a quote amount, no price, no base amount. */
const marketBuy = { ref_id: "desk-2", side: "BUY", market: "BTCUSD", type: "MARKET", quote_amount: "100" };

/** Create Order's answer: the unused quote amount is "". */
const createdLimit = {
  id: "0b7e3c1a-2f4d-4e6b-9c8a-1d2e3f4a5b6c",
  profile_id: PROFILE,
  ref_id: "desk-1",
  status: "SUBMITTED",
  market: "ETHUSD",
  side: "BUY",
  type: "LIMIT",
  price: "190.23",
  base_amount: "2.50000000",
  quote_amount: "",
  amount_filled: "0.00000000",
  volume_weighted_average_price: "0.00000000",
  time_in_force: "GTC",
};

/** The same order in List Orders: the unused quote amount is "0". */
const listedLimit = { ...createdLimit, status: "FILLED", quote_amount: "0", amount_filled: "2.5" };

/** A market buy in List Orders: price and base amount "0", the quote amount with its cents. */
const listedMarketBuy = {
  id: "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
  profile_id: PROFILE,
  ref_id: "desk-2",
  status: "FILLED",
  market: "BTCUSD",
  side: "BUY",
  type: "MARKET",
  price: "0",
  base_amount: "0",
  quote_amount: "100.00",
  time_in_force: "FOK",
};

/** Create Order's 409: the existing record in meta, without type, price or base amount. */
const orderConflict = {
  type: "https://service.example/problems/already-exists",
  title: "Already Exists",
  status: 409,
  detail: "order already exists with ref_id 'desk-2'",
  meta: {
    existing: {
      id: listedMarketBuy.id,
      profile_id: PROFILE,
      ref_id: "desk-2",
      status: "SUBMITTED",
      side: "BUY",
      market: "BTCUSD",
      quote_amount: "100.00",
    },
  },
};

/** Create Internal Transfer's 409: no meta at all. */
const transferConflict = {
  type: "https://service.example/problems/already-exists",
  detail: "Transfer with ref_id already exists",
  status: 409,
  title: "Already exists",
};

const transferRequest = {
  ref_id: "ops-1",
  from_profile_id: PROFILE,
  to_profile_id: OTHER_PROFILE,
  asset: "BTC",
  amount: "10.00",
};

/** The sending leg as the service answers it: "10" for the request's "10.00", a fee of "0". */
const debitLeg = {
  id: "3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7",
  customer_id: "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",
  profile_id: PROFILE,
  ref_id: "ops-1",
  amount: "10",
  total: "10",
  fee: "0",
  asset: "BTC",
  balance_asset: "BTC",
  direction: "DEBIT",
  type: "INTERNAL_TRANSFER_DEBIT",
  status: "PENDING",
  group_id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
};
const creditLeg = {
  ...debitLeg,
  id: "4f5a6b7c-8d9e-4fa0-b1c2-d3e4f5a6b7c8",
  profile_id: OTHER_PROFILE,
  direction: "CREDIT",
};

describe("amounts by meaning", () => {
  it.each([
    ["", "0"],
    ["0", undefined],
    [null, ""],
    ["0.00000000", ""],
    ["10", "10.00"],
    [".5", "0.50"],
    ["2.5", "2.50000000"],
  ])("%j and %j are the same", (a, b) => {
    expect(sameAmount(a, b)).toBe(true);
    expect(sameAmount(b, a)).toBe(true);
  });

  it.each([
    ["10", "10.01"],
    ["10", ""],
    ["0.00000001", "0"],
    ["10", 10],
    ["abc", "abc"],
    ["-1", "-1"],
    ["1e3", "1000"],
  ])("%j and %j are not", (a, b) => {
    expect(sameAmount(a, b)).toBe(false);
  });
});

describe("is this the order our request made?", () => {
  it('yes, as Create Order answers it (quote_amount "") and as List Orders lists it ("0")', () => {
    expect(isSameOrder(PROFILE, limitBuy, createdLimit)).toBe(true);
    expect(isSameOrder(PROFILE, limitBuy, listedLimit)).toBe(true);
  });

  it('yes, a market buy listed with price and base amount "0" and its quote amount with cents', () => {
    expect(isSameOrder(PROFILE, marketBuy, listedMarketBuy)).toBe(true);
  });

  it("yes, from a 409's meta.existing that leaves type, price and base amount out", () => {
    const existing = existingRecordOf(orderConflict);
    expect(existing).toEqual(orderConflict.meta.existing);
    expect(isSameOrder(PROFILE, marketBuy, existing)).toBe(true);
  });

  it.each([
    ["another price", { ...limitBuy, price: "190.24" }, createdLimit],
    ["another amount", { ...limitBuy, base_amount: "2.51" }, listedLimit],
    ["a quote amount where the record has none", { ...limitBuy, quote_amount: "5" }, createdLimit],
    ["another side", { ...limitBuy, side: "SELL" }, createdLimit],
    ["another market", { ...limitBuy, market: "BTCUSD" }, createdLimit],
    ["another type", { ...limitBuy, type: "POST_ONLY_LIMIT" }, createdLimit],
    ["another ref_id", { ...limitBuy, ref_id: "desk-9" }, createdLimit],
    ["a stop price the record lacks", { ...limitBuy, stop_price: "180" }, createdLimit],
    ["a limit order against the market buy's 409", limitBuy, orderConflict.meta.existing],
  ])("no: %s", (_, request, record) => {
    expect(isSameOrder(PROFILE, request, record)).toBe(false);
  });

  it("no: another profile's order, or something that is not a record", () => {
    expect(isSameOrder(OTHER_PROFILE, limitBuy, createdLimit)).toBe(false);
    for (const record of [undefined, null, "order", [createdLimit]])
      expect(isSameOrder(PROFILE, limitBuy, record)).toBe(false);
  });
});

describe("is this the transfer our request made?", () => {
  it('yes, either leg, its amount "10" for our "10.00"', () => {
    expect(isSameTransfer(transferRequest, debitLeg)).toBe(true);
    expect(isSameTransfer(transferRequest, creditLeg)).toBe(true);
  });

  it.each([
    ["another amount", { ...debitLeg, amount: "10.5" }],
    ["no amount", { ...debitLeg, amount: "" }],
    ["another asset", { ...debitLeg, asset: "ETH" }],
    ["another sender", { ...debitLeg, profile_id: OTHER_PROFILE }],
    ["a receiving leg of the sender", { ...creditLeg, profile_id: PROFILE }],
    ["another ref_id", { ...debitLeg, ref_id: "ops-2" }],
  ])("no: %s", (_, record) => {
    expect(isSameTransfer(transferRequest, record)).toBe(false);
  });
});

describe("a 409's meta.existing", () => {
  it("is read when there, and is nothing when the 409 has no meta (then look the ref_id up)", () => {
    expect(existingRecordOf(orderConflict)).toMatchObject({ ref_id: "desk-2" });
    expect(existingRecordOf(transferConflict)).toBeUndefined();
  });

  it("is nothing on anything but a 409 problem with an object there", () => {
    expect(existingRecordOf({ ...orderConflict, status: 400 })).toBeUndefined();
    expect(existingRecordOf({ ...orderConflict, meta: { existing: "desk-2" } })).toBeUndefined();
    expect(existingRecordOf({ ...orderConflict, meta: { existing: [listedMarketBuy] } })).toBeUndefined();
    expect(existingRecordOf({ ...orderConflict, meta: { existing: null } })).toBeUndefined();
    expect(existingRecordOf("already exists")).toBeUndefined();
    expect(existingRecordOf(null)).toBeUndefined();
  });
});
