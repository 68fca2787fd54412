import { describe, expect, it } from "vitest";
import {
  createOrderRequestSchema,
  orderRecordSchema,
  quantityRuleFor,
  sidesFor,
  timeInForceFor,
  type OrderType,
  type TimeInForce,
} from "@/lib/spec";
import { ORDER_KINDS, TIME_IN_FORCE, defaultTimeInForce, kindOf, validTimesInForce } from "../../support/order-spec";
import { NOW, chars, errorsOf, expectAccepted, expectRefused, pairs } from "./helpers";

const schema = createOrderRequestSchema({ now: () => NOW });
const accepted = (input: unknown) => expectAccepted(schema, input);
const refused = (input: unknown, field: string, message?: RegExp) => expectRefused(schema, input, field, message);

const GTT_OK = String(NOW + 60_000);

/** One valid request of each kind, straight from the published service's field rules. */
const VALID = {
  "LIMIT BUY": { side: "BUY", market: "ETHUSD", type: "LIMIT", price: "1900.05", base_amount: "0.5" },
  "LIMIT SELL": { side: "SELL", market: "BTCEUR", type: "LIMIT", price: "60000.01", base_amount: "0.25" },
  "POST_ONLY_LIMIT BUY": {
    side: "BUY",
    market: "BTCUSD",
    type: "POST_ONLY_LIMIT",
    price: "65000.25",
    base_amount: "1",
  },
  "MARKET BUY": { side: "BUY", market: "BTCUSD", type: "MARKET", quote_amount: "100.00" },
  "MARKET SELL": { side: "SELL", market: "LTCUSD", type: "MARKET", base_amount: "0.01" },
  "STOP_MARKET SELL": { side: "SELL", market: "ETHUSD", type: "STOP_MARKET", stop_price: "1800.00", base_amount: "2" },
  "STOP_LIMIT SELL": {
    side: "SELL",
    market: "ETHUSD",
    type: "STOP_LIMIT",
    stop_price: "1800.00",
    price: "1795.00",
    base_amount: "2",
  },
} as const;
type Kind = keyof typeof VALID;

const SAMPLE_VALUE: Record<string, string> = {
  price: "1000.00",
  base_amount: "1",
  quote_amount: "10.00",
  stop_price: "900.00",
};

const without = (o: object, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const limit = VALID["LIMIT BUY"];

describe("each order type's required and refused fields", () => {
  it.each(Object.keys(VALID) as Kind[])("accepts a valid %s", (kind) => accepted(VALID[kind]));

  for (const kind of Object.keys(VALID) as Kind[]) {
    const { required, refused: refusedFields } = kindOf(VALID[kind].type, VALID[kind].side);
    it.each(required)(`${kind} refuses a request without %s`, (field) => {
      refused(without(VALID[kind], field), field, /is required for a/);
    });
    it.each(refusedFields)(`${kind} refuses %s`, (field) => {
      refused({ ...VALID[kind], [field]: SAMPLE_VALUE[field] }, field, /is not accepted for a/);
    });
  }

  it("names the order in words", () => {
    refused(without(limit, "price"), "price", /^Price is required for a limit order$/);
    refused(
      { ...VALID["MARKET BUY"], base_amount: "1" },
      "base_amount",
      /^Base amount is not accepted for a market buy order$/,
    );
  });

  it.each(["STOP_MARKET SELL", "STOP_LIMIT SELL"] as const)("%s must be a sell", (kind) => {
    refused({ ...VALID[kind], side: "BUY" }, "side", /side must be SELL/);
  });
});

describe("required enums", () => {
  it.each(["side", "market", "type"])("refuses a request without %s", (field) => {
    const errors = errorsOf(schema, without(limit, field));
    expect(errors.find((e) => e.field === field)?.message).toMatch(/is required/);
  });
  it("lists the accepted values", () => {
    refused({ ...limit, market: "PAXGUSD" }, "market", /one of ETHEUR, .*GOLDUSD/);
    refused({ ...limit, side: "buy" }, "side", /one of BUY, SELL/);
  });
  it("refuses an unknown field by name", () => {
    refused({ ...limit, qty: "1" }, "qty", /Unknown field "qty"/);
  });
});

describe("time in force by order type (lib/spec time-in-force)", () => {
  const base: Record<OrderType, object> = {
    MARKET: VALID["MARKET BUY"],
    LIMIT: VALID["LIMIT BUY"],
    POST_ONLY_LIMIT: VALID["POST_ONLY_LIMIT BUY"],
    STOP_MARKET: VALID["STOP_MARKET SELL"],
    STOP_LIMIT: VALID["STOP_LIMIT SELL"],
  };
  const cells = Object.entries(TIME_IN_FORCE).flatMap(([type, row]) =>
    Object.entries(row).map(([tif, cell]) => [type as OrderType, tif as TimeInForce, cell] as const),
  );

  it.each(cells)("%s with %s is %s", (type, tif, cell) => {
    const request = { ...base[type], time_in_force: tif, ...(tif === "GTT" ? { expiration_date: GTT_OK } : {}) };
    if (cell === "-") refused(request, "time_in_force", new RegExp(`${tif} is not valid for a`));
    else accepted(request);
  });
});

// The ticket lays itself out with these functions, not with the schema: check them directly.
describe("lib/spec's rule functions agree with the spec's tables", () => {
  it.each(ORDER_KINDS)("quantityRuleFor($type, $side)", ({ type, side, required, refused }) => {
    const rule = quantityRuleFor(type, side);
    expect(new Set(rule.required)).toEqual(new Set(required));
    expect(new Set(rule.refused)).toEqual(new Set(refused));
  });

  it.each(Object.keys(TIME_IN_FORCE) as OrderType[])("sidesFor(%s)", (type) => {
    const sides = ORDER_KINDS.filter((k) => k.type === type).map((k) => k.side);
    expect(new Set(sidesFor(type))).toEqual(new Set(sides));
  });

  it.each(Object.keys(TIME_IN_FORCE) as OrderType[])("timeInForceFor(%s)", (type) => {
    const rule = timeInForceFor(type);
    expect({ default: rule.default, valid: new Set(rule.valid) }).toEqual({
      default: defaultTimeInForce(type),
      valid: new Set(validTimesInForce(type)),
    });
  });
});

describe("GTT expiry", () => {
  const gtt = { ...limit, time_in_force: "GTT" };
  it("refuses an expiry exactly 10 seconds from now", () => {
    refused(
      { ...gtt, expiration_date: String(NOW + 10_000) },
      "expiration_date",
      /A GTT order must expire more than 10 seconds from now/,
    );
  });
  it("accepts an expiry just over 10 seconds from now", () =>
    accepted({ ...gtt, expiration_date: String(NOW + 10_001) }));
  it("refuses an expiry in the past", () => refused({ ...gtt, expiration_date: String(NOW - 1) }, "expiration_date"));
  it("judges against the clock it is given", () => {
    const later = createOrderRequestSchema({ now: () => NOW + 60_000 });
    expectRefused(later, { ...gtt, expiration_date: GTT_OK }, "expiration_date", /more than 10 seconds/);
  });
  it("requires an expiry for GTT", () => refused(gtt, "expiration_date", /required for a GTT order/));
  it.each([
    ["GTC", { time_in_force: "GTC" }],
    ["the default", {}],
  ])("refuses an expiry with %s", (_, extra) => {
    refused({ ...limit, ...extra, expiration_date: GTT_OK }, "expiration_date", /only with time in force GTT/);
  });
  it.each(["180000000000", "18000000000000", "1.8e12", "abc", ""])("refuses the malformed expiry %j", (value) => {
    refused({ ...gtt, expiration_date: value }, "expiration_date", /13 digits/);
  });
  it("refuses an expiry sent as a number", () => refused({ ...gtt, expiration_date: NOW + 60_000 }, "expiration_date"));
});

describe("await_fill_millis", () => {
  it.each([0, 1, 10_000])("accepts %d", (ms) => accepted({ ...limit, await_fill_millis: ms }));
  it.each([
    [10_001, /at most 10000/],
    [-1, /negative/],
    [1.5, /whole number/],
    ["100", /whole number/],
  ])("refuses %j", (ms, message) => refused({ ...limit, await_fill_millis: ms }, "await_fill_millis", message));
});

describe("identity_id and identity_account_id travel together", () => {
  it("accepts both", () => accepted({ ...limit, identity_id: "id-1", identity_account_id: "acct-1" }));
  it("refuses identity_id alone", () =>
    refused({ ...limit, identity_id: "id-1" }, "identity_account_id", /required when an identity ID is sent/));
  it("refuses identity_account_id alone", () =>
    refused(
      { ...limit, identity_account_id: "acct-1" },
      "identity_id",
      /required when an identity account ID is sent/,
    ));
});

describe("metadata limits", () => {
  it("accepts 6 pairs", () => accepted({ ...limit, metadata: pairs(6) }));
  it("refuses 7 pairs", () => refused({ ...limit, metadata: pairs(7) }, "metadata", /at most 6 pairs/));
  it("accepts a 100-character key and value", () => accepted({ ...limit, metadata: { [chars(100)]: chars(100) } }));
  it("refuses a 101-character key", () =>
    refused({ ...limit, metadata: { [chars(101)]: "v" } }, `metadata.${chars(101)}`, /longer than 100/));
  it("refuses a 101-character value", () =>
    refused({ ...limit, metadata: { desk: chars(101) } }, "metadata.desk", /longer than 100/));
  it("counts characters, not UTF-16 units", () =>
    accepted({ ...limit, metadata: { desk: chars(100, "€").replace(/€/g, "😀") } }));
  it("refuses a non-text value", () => refused({ ...limit, metadata: { desk: 5 } }, "metadata.desk", /must be text/));
  it("refuses an empty key", () => refused({ ...limit, metadata: { "": "v" } }, "metadata.", /must not be empty/));
});

describe("self_match_prevention_id", () => {
  it("accepts 36 characters", () => accepted({ ...limit, self_match_prevention_id: chars(36) }));
  it("refuses 37 characters", () =>
    refused({ ...limit, self_match_prevention_id: chars(37) }, "self_match_prevention_id", /at most 36/));
  it("refuses an empty id", () => refused({ ...limit, self_match_prevention_id: "" }, "self_match_prevention_id"));
});

describe("ref_id", () => {
  it("accepts 128 visible characters", () => accepted({ ...limit, ref_id: chars(128) }));
  it("refuses 129 characters", () => refused({ ...limit, ref_id: chars(129) }, "ref_id", /at most 128/));
  it.each(["has space", "tab\there", "café", ""])("refuses %j", (ref) => refused({ ...limit, ref_id: ref }, "ref_id"));
});

describe("identifiers", () => {
  it.each(["a/b", "..", "a..b", "%2F", "with space", ""])("refuses the recipient profile %j", (id) =>
    refused({ ...limit, recipient_profile_id: id }, "recipient_profile_id"),
  );
  it("accepts a UUID", () => accepted({ ...limit, recipient_profile_id: "b7b77d82-e6a7-4ae9-9904-36231aedf985" }));
});

describe("amount precision and price ticks", () => {
  it("accepts 8 decimal places of base amount and refuses 9", () => {
    accepted({ ...limit, base_amount: "0.00000001" });
    refused({ ...limit, base_amount: "0.000000001" }, "base_amount", /at most 8 decimal places/);
  });
  it("accepts 2 decimal places of quote amount and refuses 3", () => {
    accepted({ ...VALID["MARKET BUY"], quote_amount: "0.01" });
    refused({ ...VALID["MARKET BUY"], quote_amount: "0.001" }, "quote_amount", /at most 2 decimal places/);
  });
  it.each([
    ["BTCUSD", "65000.25", "65000.10", "0.25"],
    ["ETHUSD", "1900.05", "1900.01", "0.05"],
    ["BCHUSD", "300.05", "300.04", "0.05"],
    ["MATICUSD", "0.7001", "0.70005", "0.0001"],
    ["LINKUSD", "14.01", "14.001", "0.01"],
    ["ETHEUR", "1700.01", "1700.015", "0.01"],
  ])("%s prices step by its tick", (market, onTick, offTick, tick) => {
    accepted({ ...limit, market, price: onTick });
    refused({ ...limit, market, price: offTick }, "price", new RegExp(`multiple of ${tick.replace(".", "\\.")}`));
    refused({ ...VALID["STOP_MARKET SELL"], market, stop_price: offTick }, "stop_price", /multiple of/);
  });
  it("refuses a malformed price on its field", () => refused({ ...limit, price: "1e3" }, "price", /exponent/));
});

describe("the Order record", () => {
  const record = {
    id: "f190b163-208f-4d73-8deb-4fb8b24add00",
    profile_id: "b7b77d82-e6a7-4ae9-9904-36231aedf985",
    ref_id: "my-order-1",
    status: "SUBMITTED",
    market: "ETHUSD",
    side: "BUY",
    type: "LIMIT",
    price: "190.23",
    base_amount: "2.35781498",
    quote_amount: "",
    metadata: { customer_id: "9b8c9cba" },
    created_at: "2026-11-22T10:00:00.123Z",
    modified_at: "2026-11-22T10:00:00.123Z",
    amount_filled: "0.00000000",
    volume_weighted_average_price: "0.00000000",
    time_in_force: "GTC",
    is_triggered: false,
  };
  it('accepts the service\'s record, with "" for an unused quote amount', () => {
    expect(orderRecordSchema.safeParse(record).success).toBe(true);
  });
  it("refuses a record whose amount is a number", () => {
    expect(orderRecordSchema.safeParse({ ...record, amount_filled: 0 }).success).toBe(false);
  });
  it("refuses a record with an unknown status", () => {
    expect(orderRecordSchema.safeParse({ ...record, status: "DONE" }).success).toBe(false);
  });
});
