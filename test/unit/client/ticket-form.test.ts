import { describe, expect, it } from "vitest";
import { describeOrder, TIF_WORDS } from "@/lib/shared/describe-order";
import {
  amountFromBalance,
  estimateWorthUsd,
  fillsFromBalance,
  ticketDefaults,
  ticketResolver,
  timeInForceAfterTypeChange,
  toOrderRequest,
  type TicketValues,
} from "@/components/orders/ticket-form";
import { ORDER_TYPES, type OrderType, type TimeInForce } from "@/lib/spec/enums";
import { quantityRuleFor } from "@/lib/spec/order-rules";
import { timeInForceFor } from "@/lib/spec/time-in-force";
import { orderValueInUsd } from "@/lib/spec/valuation";

const options = { fields: {}, shouldUseNativeValidation: false, criteriaMode: "firstError", names: undefined } as never;
const ticket = (over: Partial<TicketValues>): TicketValues => ({ ...ticketDefaults(), profile_id: "trading", ...over });
/** What a datetime-local input holds for a moment `msFromNow` ahead, in this machine's time zone. */
function localInputValue(msFromNow: number): string {
  const d = new Date(Date.now() + msFromNow);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
const resolve = (v: TicketValues) => ticketResolver(v, undefined, options);
const messages = async (v: TicketValues) =>
  Object.fromEntries(
    Object.entries((await resolve(v)).errors).map(([k, e]) => [k, (e as { message?: string }).message]),
  );

describe("the order ticket's request", () => {
  it("sends only the quantities the order type uses", () => {
    const v = ticket({
      type: "MARKET",
      side: "BUY",
      price: "1",
      base_amount: "2",
      quote_amount: "100.00",
      stop_price: "3",
      time_in_force: "IOC",
    });
    expect(toOrderRequest(v)).toMatchObject({ type: "MARKET", side: "BUY", quote_amount: "100.00" });
    expect(toOrderRequest(v)).not.toHaveProperty("price");
    expect(toOrderRequest(v)).not.toHaveProperty("base_amount");
  });

  it("sends a GTT expiry as 13-digit unix milliseconds", () => {
    const local = localInputValue(60_000);
    const sent = toOrderRequest(ticket({ time_in_force: "GTT", expiration_date: local })).expiration_date as string;
    expect(sent).toMatch(/^\d{13}$/);
    expect(Math.abs(Number(sent) - (Date.now() + 60_000))).toBeLessThan(2_000);
  });

  it("drops blank options and blank metadata rows", () => {
    const request = toOrderRequest(
      ticket({
        ref_id: " ",
        metadata: [
          { key: "", value: "" },
          { key: "desk", value: "fx" },
        ],
        await_fill_millis: "",
      }),
    );
    expect(request).not.toHaveProperty("ref_id");
    expect(request.metadata).toEqual({ desk: "fx" });
    expect(request).not.toHaveProperty("await_fill_millis");
  });
});

/** Every change of order type the ticket offers: each ordered pair of two different types. */
const TYPE_CHANGES = ORDER_TYPES.flatMap((from) => ORDER_TYPES.filter((to) => to !== from).map((to) => [from, to]));
const defaultOf = (type: OrderType) => timeInForceFor(type).default;

describe("the time in force after a change of order type", () => {
  it.each(TYPE_CHANGES)("%s -> %s: the new type's default while nobody picked one for it", (from, to) => {
    // Whatever the old type held, picked or its default, none of it carries over.
    for (const held of timeInForceFor(from).valid) {
      expect(timeInForceAfterTypeChange(to, { [from]: held }), `${from} held ${held}`).toBe(defaultOf(to));
    }
    expect(timeInForceAfterTypeChange(to, {})).toBe(defaultOf(to));
  });

  it.each(TYPE_CHANGES)("%s -> %s -> back: each pick the person made for a type comes back with it", (from, to) => {
    for (const picked of timeInForceFor(from).valid) {
      const choices = { [from]: picked };
      expect(timeInForceAfterTypeChange(to, choices)).toBe(defaultOf(to));
      expect(timeInForceAfterTypeChange(from, choices), `${from} picked ${picked}`).toBe(picked);
    }
  });

  it.each(TYPE_CHANGES)("%s -> %s: a pick made earlier for the new type is restored", (from, to) => {
    for (const picked of timeInForceFor(to).valid) {
      expect(timeInForceAfterTypeChange(to, { [from]: defaultOf(from), [to]: picked })).toBe(picked);
    }
  });

  it("Limit -> Market -> Limit reads GTC, and a pick of IOC on Limit survives it", () => {
    expect(timeInForceAfterTypeChange("MARKET", {})).toBe("IOC");
    expect(timeInForceAfterTypeChange("LIMIT", {})).toBe("GTC");
    expect(timeInForceAfterTypeChange("LIMIT", { LIMIT: "IOC" })).toBe("IOC");
  });

  it("falls back to the default when a recorded pick is not valid for the type", () => {
    expect(timeInForceAfterTypeChange("STOP_LIMIT", { STOP_LIMIT: "FOK" })).toBe("GTC");
    expect(timeInForceAfterTypeChange("MARKET", { MARKET: "GTC" })).toBe("IOC");
  });
});

describe("the ticket's resolver refuses what the service refuses, on the same field", () => {
  it("names each field and rule", async () => {
    expect(
      await messages(
        ticket({ profile_id: "", price: "65000.10", base_amount: "0.000000001", await_fill_millis: "10001" }),
      ),
    ).toEqual({
      profile_id: "Choose the profile that places the order",
      price: "Price must be a multiple of 0.25, the tick size of BTC/USD",
      base_amount: "Base amount may have at most 8 decimal places",
      await_fill_millis: "Wait for fill may be at most 10000 ms (10 seconds)",
    });
  });

  it("refuses a GTT expiry 10 seconds or less away", async () => {
    const errors = await messages(
      ticket({ price: "1.00", base_amount: "1", time_in_force: "GTT", expiration_date: localInputValue(5_000) }),
    );
    expect(errors.expiration_date).toBe("A GTT order must expire more than 10 seconds from now");
  });

  it("refuses one identity id without the other, and a repeated metadata key", async () => {
    const errors = await messages(
      ticket({
        price: "1.00",
        base_amount: "1",
        identity_id: "me",
        metadata: [
          { key: "a", value: "1" },
          { key: "a", value: "2" },
        ],
      }),
    );
    expect(errors).toEqual({
      identity_account_id: "Identity account ID is required when an identity ID is sent",
      metadata: 'Metadata key "a" is used twice',
    });
  });

  it("hands a valid ticket over as the profile and the request", async () => {
    const result = await resolve(ticket({ price: "65000.25", base_amount: "0.5", ref_id: "r-1" }));
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      kind: "order",
      profileId: "trading",
      request: {
        side: "BUY",
        market: "BTCUSD",
        type: "LIMIT",
        price: "65000.25",
        base_amount: "0.5",
        time_in_force: "GTC",
        ref_id: "r-1",
      },
    });
  });
});

describe("the review step's words", () => {
  it("states each kind of order", () => {
    expect(
      describeOrder(
        { side: "BUY", market: "BTCUSD", type: "LIMIT", price: "65000.25", base_amount: "0.5", time_in_force: "GTC" },
        "Trading",
      ),
    ).toBe("Buy 0.5 BTC at 65,000.25 USD or better, a limit order, good till cancelled, from Trading.");
    expect(describeOrder({ side: "BUY", market: "ETHEUR", type: "MARKET", quote_amount: "1000.00" }, "Treasury")).toBe(
      "Buy ETH for 1,000.00 EUR at the market price, immediate or cancel: what cannot fill at once is cancelled, from Treasury.",
    );
    expect(
      describeOrder(
        {
          side: "SELL",
          market: "ETHUSD",
          type: "STOP_LIMIT",
          stop_price: "2500.00",
          price: "2490.00",
          base_amount: "2",
          await_fill_millis: 3000,
        },
        "Trading",
      ),
    ).toBe(
      "Sell 2 ETH at 2,490.00 USD or better once the last trade falls to 2,500.00 USD (stop-loss), good till cancelled, from Trading, waiting up to 3 s for the fill.",
    );
  });

  /** The request the ticket sends for `type` with `tif`, as the resolver hands it over. */
  const sentRequest = (type: OrderType, tif: TimeInForce) =>
    toOrderRequest(
      ticket({
        type,
        side: type.startsWith("STOP_") ? "SELL" : "BUY",
        price: "65000.25",
        stop_price: "65000.00",
        base_amount: "0.5",
        quote_amount: "100.00",
        time_in_force: tif,
      }),
    ) as unknown as Parameters<typeof describeOrder>[0];

  it.each(ORDER_TYPES)("restates the time in force a %s order sends, and only that one", (type) => {
    for (const tif of timeInForceFor(type).valid.filter((t): t is keyof typeof TIF_WORDS => t !== "GTT")) {
      const sentence = describeOrder(sentRequest(type, tif), "Trading");
      expect(sentence, `${type} ${tif}`).toContain(`, ${TIF_WORDS[tif]}, `);
      for (const other of Object.keys(TIF_WORDS).filter((t) => t !== tif)) {
        expect(sentence).not.toContain(TIF_WORDS[other as keyof typeof TIF_WORDS]);
      }
    }
  });

  it("restates the type's own default when no time in force is sent", () => {
    const { time_in_force: _, ...market } = sentRequest("MARKET", "IOC");
    expect(describeOrder(market, "Trading")).toContain(TIF_WORDS.IOC);
    const { time_in_force: __, ...limit } = sentRequest("LIMIT", "GTC");
    expect(describeOrder(limit, "Trading")).toContain(TIF_WORDS.GTC);
  });
});

describe("the ticket's arithmetic, exact to the last digit", () => {
  const balances = [
    { asset: "USD", available: "1000.01" },
    { asset: "BTC", available: "0.00000003" },
  ];

  it("values the order as the controls do: its quantity at the larger of its own price and the mid, in USD", () => {
    const mids = { BTCUSD: "65010.125", BTCEUR: "60000" };
    // A bid below the mid is worth the mid (the case of a "60.00" beside the review's "65.01").
    expect(estimateWorthUsd(ticket({ price: "60000", base_amount: "0.001" }), mids)).toBe("65.01012500");
    expect(estimateWorthUsd(ticket({ price: "70000.25", base_amount: "0.001" }), mids)).toBe("70.00025000");
    expect(
      estimateWorthUsd(ticket({ type: "STOP_MARKET", side: "SELL", stop_price: "0.1", base_amount: "0.2" }), mids),
    ).toBe("13002.02500000");
    expect(estimateWorthUsd(ticket({ type: "MARKET", side: "BUY", quote_amount: "250.00" }), mids)).toBe(
      "250.00000000",
    );
    expect(estimateWorthUsd(ticket({ type: "MARKET", side: "SELL", base_amount: "0.1" }), mids)).toBe("6501.01250000");
    // A EUR notional in USD at the cross: 0.01 × 61,000 EUR × 65,010.125 / 60,000.
    expect(estimateWorthUsd(ticket({ market: "BTCEUR", price: "61000", base_amount: "0.01" }), mids)).toBe(
      "660.93627083",
    );
    // The same figure as the rule the controls use, for every type.
    for (const type of ORDER_TYPES) {
      const v = ticket({
        type,
        side: "SELL",
        price: "64000",
        stop_price: "63000",
        base_amount: "0.5",
        quote_amount: "9",
      });
      const request = { market: v.market, side: v.side, type, price: v.price, stop_price: v.stop_price };
      const needed = quantityRuleFor(type, "SELL").required;
      expect(estimateWorthUsd(v, mids), type).toBe(
        orderValueInUsd({ ...request, ...Object.fromEntries(needed.map((f) => [f, v[f]])) }, mids),
      );
    }
  });

  it("estimates nothing while a quantity the type needs is blank or malformed, or without prices", () => {
    const mids = { BTCUSD: "65000" };
    expect(estimateWorthUsd(ticket({ price: "100", base_amount: "" }), mids)).toBeUndefined();
    expect(estimateWorthUsd(ticket({ price: "", base_amount: "1" }), mids)).toBeUndefined();
    expect(estimateWorthUsd(ticket({ price: "1,5", base_amount: "1" }), mids)).toBeUndefined();
    expect(estimateWorthUsd(ticket({ type: "MARKET", side: "SELL", base_amount: "0.1" }), {})).toBeUndefined();
  });

  it("takes a quote amount from the quote balance, rounded down to cents", () => {
    const buy = ticket({ type: "MARKET", side: "BUY" });
    expect(amountFromBalance("quote_amount", 25, buy, balances)).toBe("250.00");
    expect(amountFromBalance("quote_amount", 100, buy, balances)).toBe("1000.01");
  });

  it("takes a sell's base amount from the base balance, rounded down, never more than held", () => {
    const sell = ticket({ side: "SELL", price: "100" });
    expect(amountFromBalance("base_amount", 50, sell, balances)).toBe("0.00000001");
    expect(amountFromBalance("base_amount", 100, sell, balances)).toBe("0.00000003");
  });

  it("buys with a share of the quote balance at the typed price, rounded down", () => {
    expect(amountFromBalance("base_amount", 100, ticket({ price: "3" }), balances)).toBe("333.33666666");
    expect(amountFromBalance("base_amount", 100, ticket({ price: "" }), balances)).toBeUndefined();
  });

  it("fills nothing while the balance is unknown or empty", () => {
    expect(amountFromBalance("quote_amount", 25, ticket({}), undefined)).toBeUndefined();
    expect(amountFromBalance("quote_amount", 25, ticket({}), [{ asset: "USD", available: "" }])).toBeUndefined();
    expect(amountFromBalance("base_amount", 25, ticket({ side: "SELL" }), [])).toBeUndefined();
  });

  it("offers the shares of the balance only where they can fill the field", () => {
    expect(fillsFromBalance("quote_amount", ticket({}))).toBe(true);
    expect(fillsFromBalance("base_amount", ticket({ side: "SELL" }))).toBe(true);
    expect(fillsFromBalance("base_amount", ticket({ side: "BUY", price: "" }))).toBe(false);
    expect(fillsFromBalance("base_amount", ticket({ side: "BUY", price: "10" }))).toBe(true);
    expect(fillsFromBalance("price", ticket({ price: "10" }))).toBe(false);
  });
});
