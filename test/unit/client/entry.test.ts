import { describe, expect, it } from "vitest";
import { orderShortfall, transferShortfall, type FundsContext } from "@/components/forms/funds";
import { canRetry, inDeskWords } from "@/components/forms/server-problem";
import { describeOrder } from "@/lib/shared/describe-order";
import { describeOutcome } from "@/components/orders/order-outcome";
import {
  expiryInBothZones,
  sideForKey,
  staleExpiry,
  stopTriggersAtOnce,
  ticketDefaults,
  ticketResolver,
  type TicketValues,
} from "@/components/orders/ticket-form";
import { describeTransfer, describeTransferOutcome } from "@/lib/shared/describe-transfer";
import { transferDefaults, transferResolver } from "@/components/transfers/transfer-form-values";
import type { Order } from "@/lib/spec/order";
import type { Transfer } from "@/lib/spec/transfer";

const options = { fields: {}, shouldUseNativeValidation: false, criteriaMode: "firstError", names: undefined } as never;
const balances: Record<string, { asset: string; available: string; trading: string }[]> = {
  trading: [
    { asset: "BTC", available: "350.00000000", trading: "0" },
    { asset: "USD", available: "10000.00", trading: "0" },
  ],
};
const NAMES: Record<string, string> = { trading: "Trading", treasury: "Treasury", settlement: "Settlement" };
const funds: FundsContext = { balancesOf: (id) => balances[id], nickname: (id) => NAMES[id] ?? id };
const ticket = (over: Partial<TicketValues>): TicketValues => ({ ...ticketDefaults(), profile_id: "trading", ...over });
const ticketErrors = async (v: TicketValues, context: unknown = funds) =>
  Object.fromEntries(
    Object.entries((await ticketResolver(v, context, options)).errors).map(([k, e]) => [k, e?.message]),
  );

describe("enough funds, before the review", () => {
  it("stops a sell for more base than the profile has, on its field, with the figures", async () => {
    expect(await ticketErrors(ticket({ side: "SELL", price: "65000.00", base_amount: "5000" }))).toEqual({
      base_amount: "Sell 5,000 BTC: Trading has 350 BTC available",
    });
    expect(await ticketErrors(ticket({ side: "SELL", price: "65000.00", base_amount: "350" }))).toEqual({});
    expect(
      await ticketErrors(ticket({ type: "STOP_MARKET", side: "SELL", stop_price: "60000.00", base_amount: "350.1" })),
    ).toEqual({ base_amount: "Sell 350.1 BTC: Trading has 350 BTC available" });
  });

  it("stops a buy whose notional, or a market buy whose quote amount, is more than the quote available", async () => {
    expect(await ticketErrors(ticket({ side: "BUY", price: "70000.00", base_amount: "0.5" }))).toEqual({
      base_amount: "Buy 0.5 BTC at 70,000.00 USD needs 35,000.00 USD: Trading has 10,000.00 USD available",
    });
    expect(await ticketErrors(ticket({ side: "BUY", price: "20000.00", base_amount: "0.5" }))).toEqual({});
    expect(
      await ticketErrors(ticket({ type: "MARKET", side: "BUY", quote_amount: "10000.01", time_in_force: "IOC" })),
    ).toEqual({
      quote_amount: "Buy BTC for 10,000.01 USD: Trading has 10,000.00 USD available",
    });
    expect(
      await ticketErrors(ticket({ type: "MARKET", side: "BUY", quote_amount: "10000.00", time_in_force: "IOC" })),
    ).toEqual({});
  });

  it("counts an asset the profile does not hold as none, and stops nothing while balances are unknown", async () => {
    const eth = ticket({ market: "ETHUSD", side: "SELL", price: "2000.00", base_amount: "1" });
    expect(await ticketErrors(eth)).toEqual({ base_amount: "Sell 1 ETH: Trading has 0 ETH available" });
    expect(await ticketErrors(eth, null)).toEqual({});
    expect(await ticketErrors(eth, { ...funds, balancesOf: () => undefined })).toEqual({});
    // A rule of the service is named first; the funds are checked once every rule holds.
    expect(await ticketErrors(ticket({ side: "SELL", price: "65000.10", base_amount: "5000" }))).toEqual({
      price: expect.stringMatching(/tick size/),
    });
  });

  it("stops a transfer for more than the sending profile has", async () => {
    const transfer = { ...transferDefaults(), from_profile_id: "trading", to_profile_id: "settlement" };
    const check = async (amount: string, asset = "USD") =>
      (await transferResolver({ ...transfer, amount, asset }, funds, options)).errors.amount?.message;
    expect(await check("10000.5")).toBe("Move 10,000.50 USD: Trading has 10,000.00 USD available");
    expect(await check("10000")).toBeUndefined();
    expect(await check("1", "EUR")).toBe("Move 1.00 EUR: Trading has 0.00 EUR available");
    const request = { from_profile_id: "trading", to_profile_id: "settlement", amount: "1", asset: "EUR" };
    expect(transferShortfall(request, undefined)).toBeUndefined();
    expect(
      orderShortfall({ market: "BTCUSD", side: "SELL", type: "MARKET", base_amount: "1" }, "nobody", funds),
    ).toBeUndefined();
  });
});

describe("the service's problems in the desk's words", () => {
  const profiles = [
    { id: "7f3c0000-0000-4000-8000-7ead10000000", nickname: "Trading" },
    { id: "9a1b0000-0000-4000-8000-5e771e3e0000", nickname: "Settlement" },
  ];
  it("says who has what and what the order needs, by nickname, with formatted amounts", () => {
    const funds = {
      type: "/sandbox/problems/insufficient-funds",
      title: "Insufficient Funds",
      status: 403,
      detail: "insufficient BTC funds in profile 7f3c0000-0000-4000-8000-7ead10000000: 5000 needed, 350 available",
      meta: { profile_id: "7f3c0000-0000-4000-8000-7ead10000000", asset: "BTC", available: "350", needed: "5000" },
    };
    expect(inDeskWords(funds, "order", profiles).detail).toBe(
      "Trading has 350 BTC available; this order needs 5,000 BTC.",
    );
    expect(inDeskWords(funds, "transfer", []).detail).toBe(
      "profile 7f3c0000-0000-4000-8000-7ead10000000 has 350 BTC available; this transfer needs 5,000 BTC.",
    );
  });

  it("names any other problem's profiles by nickname and keeps the rest", () => {
    const p = {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "profile 9a1b0000-0000-4000-8000-5e771e3e0000 not found",
    };
    expect(inDeskWords(p, "transfer", profiles)).toEqual({ ...p, detail: "Settlement not found" });
  });

  it("offers a retry only where it can help: a timeout, a 5xx, a lost connection", () => {
    const at = (status: number) => canRetry({ type: "about:blank", title: "x", status });
    expect([0, 500, 502, 503, 504].map(at)).toEqual([true, true, true, true, true]);
    expect([400, 403, 404, 409, 422, 429].map(at)).toEqual([false, false, false, false, false, false]);
  });
});

const order = (over: Partial<Order>): Order => ({
  id: "o-1",
  profile_id: "trading",
  ref_id: "r",
  status: "FILLED",
  side: "BUY",
  market: "BTCUSD",
  type: "LIMIT",
  base_amount: "0.0154",
  price: "65000.00",
  quote_amount: "",
  created_at: "2026-11-23T17:04:28.000Z",
  modified_at: "2026-11-23T17:04:29.000Z",
  amount_filled: "0.01540000",
  volume_weighted_average_price: "64912.50000000",
  time_in_force: "GTC",
  ...over,
});

describe("what happened to the order, next to what was asked", () => {
  it("states fills with units and the average price", () => {
    expect(describeOutcome(order({}))).toBe("Bought 0.0154 BTC of 0.0154 BTC at avg 64,912.50 USD");
    expect(
      describeOutcome(
        order({
          side: "SELL",
          base_amount: "1",
          amount_filled: "1.00000000",
          volume_weighted_average_price: "64000.5",
        }),
      ),
    ).toBe("Sold 1 BTC of 1 BTC at avg 64,000.50 USD");
    expect(
      describeOutcome(order({ type: "MARKET", base_amount: "", quote_amount: "1000.00", amount_filled: "0.0154" })),
    ).toBe("Bought 0.0154 BTC for 1,000.00 USD at avg 64,912.50 USD");
  });

  it("states a resting, waiting, cancelled, expired or rejected order with what filled of what was asked", () => {
    const none = { amount_filled: "0.00000000", volume_weighted_average_price: "0.00000000", base_amount: "0.5" };
    expect(describeOutcome(order({ ...none, status: "OPEN" }))).toBe("Resting: 0 of 0.5 BTC filled");
    expect(
      describeOutcome(
        order({ status: "OPEN", base_amount: "0.5", amount_filled: "0.2", volume_weighted_average_price: "64000" }),
      ),
    ).toBe("Resting: 0.2 of 0.5 BTC filled at avg 64,000.00 USD");
    expect(describeOutcome(order({ ...none, status: "SUBMITTED" }))).toBe("Submitted: 0 of 0.5 BTC filled");
    expect(
      describeOutcome(
        order({ ...none, status: "OPEN", type: "STOP_MARKET", side: "SELL", stop_price: "60000", is_triggered: false }),
      ),
    ).toBe("Waiting for the last trade to fall to 60,000.00 USD: 0 of 0.5 BTC filled");
    expect(describeOutcome(order({ ...none, status: "CANCELLED" }))).toBe("Cancelled: 0 of 0.5 BTC filled");
    expect(describeOutcome(order({ ...none, status: "REJECTED" }))).toBe("Rejected: 0 of 0.5 BTC filled");
    const gtt = { ...none, status: "CANCELLED" as const, time_in_force: "GTT" as const };
    expect(
      describeOutcome(
        order({ ...gtt, expiration_date: "2026-11-23T17:04:29.000Z", modified_at: "2026-11-23T17:04:29.010Z" }),
      ),
    ).toBe("Expired (GTT): 0 of 0.5 BTC filled");
    expect(
      describeOutcome(
        order({ ...gtt, expiration_date: "2026-11-23T18:00:00.000Z", modified_at: "2026-11-23T17:04:29.010Z" }),
      ),
    ).toBe("Cancelled: 0 of 0.5 BTC filled");
  });
});

describe("the review and result of a transfer", () => {
  const names = { from: "Treasury", to: "Settlement" };
  it("names both profiles and the amount with its asset, and the status once sent", () => {
    const request = { from_profile_id: "t", to_profile_id: "s", asset: "EUR", amount: "100" };
    expect(describeTransfer(request, names)).toBe("Move 100.00 EUR from Treasury to Settlement.");
    const leg = { amount: "100.00", asset: "EUR", status: "COMPLETED" } as Transfer;
    expect(describeTransferOutcome(leg, names)).toBe("Sent 100.00 EUR from Treasury to Settlement — COMPLETED");
    expect(describeTransferOutcome({ ...leg, status: "PENDING" }, names)).toBe(
      "Sending 100.00 EUR from Treasury to Settlement — PENDING",
    );
    expect(describeTransferOutcome({ ...leg, status: "FAILED" }, names)).toBe(
      "Not sent: 100.00 EUR from Treasury to Settlement — FAILED",
    );
  });
});

describe("the order review's words", () => {
  it("names the recipient profile by nickname and a GTT expiry with its zone", () => {
    const r = {
      side: "BUY" as const,
      market: "BTCUSD" as const,
      type: "LIMIT" as const,
      price: "65000.25",
      base_amount: "0.5",
      time_in_force: "GTT" as const,
      expiration_date: String(Date.UTC(2026, 10, 23, 17, 4, 28)),
      recipient_profile_id: "settlement-id",
    };
    expect(describeOrder(r, "Trading", { recipientName: "Settlement", zone: "UTC" })).toBe(
      "Buy 0.5 BTC at 65,000.25 USD or better, a limit order, good till 2026-11-23 17:04:28 UTC, from Trading, settling into Settlement.",
    );
  });
});

describe("the ticket's warnings and shortcuts", () => {
  it("warns when a sell stop is at or above the last trade: it would trigger at once", () => {
    const stop = (stop_price: string, over: Partial<TicketValues> = {}) =>
      stopTriggersAtOnce(ticket({ type: "STOP_MARKET", side: "SELL", stop_price, ...over }), "64900");
    expect(stop("65000")).toBe("This stop is above the last trade (64,900.00): it would trigger at once.");
    expect(stop("64900.00")).toBe("This stop is at the last trade (64,900.00): it would trigger at once.");
    expect(stop("64899.75")).toBeUndefined();
    expect(stop("65000", { type: "LIMIT" })).toBeUndefined();
    expect(stop("abc")).toBeUndefined();
    expect(
      stopTriggersAtOnce(ticket({ type: "STOP_LIMIT", side: "SELL", stop_price: "1" }), undefined),
    ).toBeUndefined();
  });

  it("finds a GTT expiry that passed or came within 10 s while the review was open", () => {
    const now = Date.UTC(2026, 10, 23, 17, 0, 0);
    const gtt = (msAhead: number) => ({
      side: "BUY" as const,
      market: "BTCUSD" as const,
      type: "LIMIT" as const,
      time_in_force: "GTT" as const,
      expiration_date: String(now + msAhead),
    });
    expect(staleExpiry(gtt(10_001), now)).toBeUndefined();
    expect(staleExpiry(gtt(10_000), now)).toMatch(/expiry passed, or is now less than 10 seconds away/);
    expect(staleExpiry(gtt(-5_000), now)).toMatch(/choose a later time/);
    expect(staleExpiry({ ...gtt(0), time_in_force: "GTC" }, now)).toBeUndefined();
  });

  it("shows the GTT expiry in UTC and in local time", () => {
    const text = expiryInBothZones("2026-11-23T17:04:28");
    expect(text).toMatch(/^2026-11-2\d \d\d:\d\d:28 UTC · 2026-11-23 17:04:28 GMT/);
    expect(expiryInBothZones("")).toBeUndefined();
  });

  it("takes B and S as the side, unless typing, in a dialog or with a modifier", () => {
    const key = (k: string, target: object = { tagName: "BODY" }, mods = {}) =>
      sideForKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, target, ...mods });
    expect(key("b")).toBe("BUY");
    expect(key("S")).toBe("SELL");
    expect(key("x")).toBeUndefined();
    expect(key("b", { tagName: "INPUT", type: "radio" })).toBe("BUY");
    expect(key("b", { tagName: "BUTTON" })).toBe("BUY");
    expect(key("b", { tagName: "INPUT", type: "text" })).toBeUndefined();
    expect(key("b", { tagName: "INPUT" })).toBeUndefined();
    expect(key("s", { tagName: "SELECT" })).toBeUndefined();
    expect(key("s", { tagName: "TEXTAREA" })).toBeUndefined();
    expect(key("s", { tagName: "DIV", isContentEditable: true })).toBeUndefined();
    expect(key("s", { tagName: "BUTTON", closest: (s: string) => (s.includes("dialog") ? {} : null) })).toBeUndefined();
    expect(key("b", undefined, { ctrlKey: true })).toBeUndefined();
    expect(key("s", undefined, { metaKey: true })).toBeUndefined();
    expect(key("s", undefined, { altKey: true })).toBeUndefined();
  });
});
