import { describe, expect, it } from "vitest";
import {
  durationSecondsOf,
  parentProgressWords,
  sliceEvery,
  slicesOf,
} from "@/components/orders/describe-parent-order";
import { describeParentOrder, durationWords } from "@/lib/shared/parent-order-words";
import {
  PARENT_FIELD_OF,
  ticketDefaults,
  ticketResolver,
  toParentRequest,
  wholeOrderOf,
  worksOverTime,
  type TicketValues,
} from "@/components/orders/ticket-form";
import { describeApproval } from "@/lib/shared/describe-approval";
import { parentOrderRequestSchema } from "@/lib/shared/parent-order";
import type { Approval } from "@/lib/shared/approval";
import { parentFixture } from "../../support/parent-fixture";

/**
 * The order ticket's "Work over time" (issue 29): the review's sentence, the duration as a person
 * types it, and the parent's request checked with the one schema the server parses it with, each
 * message on the field the person typed in.
 */

const options = { fields: {}, shouldUseNativeValidation: false, criteriaMode: "firstError", names: undefined } as never;
const twap = (over: Partial<TicketValues> = {}): TicketValues => ({
  ...ticketDefaults(),
  profile_id: "trading",
  over_time: true,
  price: "66000",
  base_amount: "2",
  duration: "30",
  duration_unit: "minutes",
  slices: "30",
  ref_id: "desk-twap-1",
  ...over,
});
const resolve = (v: TicketValues) => ticketResolver(v, undefined, options);
const messages = async (v: TicketValues) =>
  Object.fromEntries(
    Object.entries((await resolve(v)).errors).map(([k, e]) => [k, (e as { message?: string }).message]),
  );
/** What the server's schema says first of the same request, by field (lib/shared/parent-order.ts). */
function serverMessages(v: TicketValues): Record<string, string> {
  const parsed = parentOrderRequestSchema.safeParse(toParentRequest(v));
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.toReversed().map((i) => [String(i.path[0]), i.message]));
}

describe("the review's sentence", () => {
  it("says a buy over time as the issue writes it, never above the cap", () => {
    expect(
      describeParentOrder({
        side: "BUY",
        market: "BTCUSD",
        base_amount: "2",
        duration_seconds: 1800,
        slices: 30,
        limit_price: "66000",
      }),
    ).toBe("Buy 2 BTC over 30 minutes in 30 slices, never above 66,000.00 USD");
  });

  it("says a sell never below its cap, with the market's own assets and grouped figures", () => {
    expect(
      describeParentOrder({
        side: "SELL",
        market: "ETHUSD",
        base_amount: "1250.5",
        duration_seconds: 5400,
        slices: 2,
        limit_price: "3100.05",
      }),
    ).toBe("Sell 1,250.5 ETH over 1 hour 30 minutes in 2 slices, never below 3,100.05 USD");
  });

  it("says a duration in hours, minutes and seconds, exactly", () => {
    expect(durationWords(60)).toBe("1 minute");
    expect(durationWords(90)).toBe("1 minute 30 seconds");
    expect(durationWords(1800)).toBe("30 minutes");
    expect(durationWords(3600)).toBe("1 hour");
    expect(durationWords(86_400)).toBe("24 hours");
    expect(durationWords(3661)).toBe("1 hour 1 minute 1 second");
  });

  it("says how far a parent has come, and how often a slice goes", () => {
    const p = parentFixture({ filled_base: "0.1", average_price: "60010" });
    expect(parentProgressWords(p)).toBe("Filled 0.1 of 0.2 BTC at avg 60,010.00 USD; 2 of 6 slices sent.");
    expect(sliceEvery(1800, 30)).toBe("one every 1 minute");
    expect(sliceEvery(60, 7)).toBe("about one every 8.6 seconds");
    expect(sliceEvery("x", 7)).toBeUndefined();
  });

  it("describes a held parent order in the approval's words", () => {
    const approval = {
      kind: "parent_order",
      profile_id: "trading",
      request: {
        ref_id: "r",
        profile_id: "trading",
        market: "BTCUSD",
        side: "BUY",
        base_amount: "2",
        strategy: "TWAP",
        duration_seconds: 1800,
        slices: 30,
        limit_price: "66000",
        parent_order_id: "p",
      },
    } as unknown as Approval;
    expect(describeApproval(approval, () => "Trading")).toBe(
      "TWAP: Buy 2 BTC over 30 minutes in 30 slices, never above 66,000.00 USD, from Trading.",
    );
  });
});

describe("the duration and the slices as typed", () => {
  it("turns the duration typed in minutes, seconds or hours into whole seconds, exactly", () => {
    expect(durationSecondsOf("30", "minutes")).toBe(1800);
    expect(durationSecondsOf("1.5", "hours")).toBe(5400);
    expect(durationSecondsOf("1,440", "minutes")).toBe(86_400);
    expect(durationSecondsOf(" 90 ", "seconds")).toBe(90);
    expect(durationSecondsOf("0.1", "minutes")).toBe(6);
    expect(durationSecondsOf("0.01", "minutes")).toBe(0.6);
    expect(durationSecondsOf("", "minutes")).toBeUndefined();
    expect(durationSecondsOf("half an hour", "minutes")).toBe("half an hour");
  });

  it("passes anything but a count of slices on for the schema to name", () => {
    expect(slicesOf("30")).toBe(30);
    expect(slicesOf("")).toBeUndefined();
    expect(slicesOf("2.5")).toBe("2.5");
  });
});

describe("the ticket's resolver on a limit order worked over time", () => {
  it("works over time only a limit order with the choice made", () => {
    expect(worksOverTime({ type: "LIMIT", over_time: true })).toBe(true);
    expect(worksOverTime({ type: "LIMIT", over_time: false })).toBe(false);
    expect(worksOverTime({ type: "MARKET", over_time: true })).toBe(false);
  });

  it("hands the parent's request over: whole seconds, the cap as its limit price, the ticket's ref_id", async () => {
    const result = await resolve(twap());
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      kind: "parent",
      profileId: "trading",
      request: {
        ref_id: "desk-twap-1",
        profile_id: "trading",
        market: "BTCUSD",
        side: "BUY",
        base_amount: "2",
        strategy: "TWAP",
        duration_seconds: 1800,
        slices: 30,
        limit_price: "66000",
      },
    });
  });

  it("shows each of the server's messages on the field typed in (duration on Duration, the limit price on the cap)", async () => {
    const cases: [Partial<TicketValues>, keyof TicketValues, RegExp][] = [
      [{ duration: "59", duration_unit: "seconds" }, "duration", /Duration must be at least 60/],
      [{ duration: "0.5" }, "duration", /Duration must be at least 60/],
      [{ duration: "1441" }, "duration", /Duration may be at most 86,400/],
      [{ duration: "0.01" }, "duration", /Duration must be a whole number/],
      [{ duration: "" }, "duration", /Duration must be a whole number/],
      [{ slices: "1" }, "slices", /Slices must be at least 2/],
      [{ slices: "501", duration: "24", duration_unit: "hours" }, "slices", /Slices may be at most 500/],
      [{ slices: "13", duration: "1" }, "slices", /at least 5 seconds apart: at most 12 over 60 seconds/],
      [{ slices: "" }, "slices", /Slices must be a whole number/],
      [{ price: "66000.10" }, "price", /Limit price must be a multiple of 0\.25/],
      [{ price: "" }, "price", /Limit price/],
      [{ base_amount: "0.00000005", slices: "6" }, "base_amount", /each of the 6 slices/],
      [{ base_amount: "1.000000001" }, "base_amount", /at most 8 decimal places/],
    ];
    for (const [change, field, message] of cases) {
      const values = twap(change);
      const got = await messages(values);
      expect(got[field], `${JSON.stringify(change)} on ${field}: ${JSON.stringify(got)}`).toMatch(message);
      // The very words the server answers with, only on the form's name for the field.
      const server = serverMessages(values);
      const serverField = Object.keys(PARENT_FIELD_OF).find((k) => PARENT_FIELD_OF[k] === field) ?? field;
      expect(got[field]).toBe(server[serverField]);
    }
  });

  it("asks for the profile in the ticket's own words, and checks the whole against the balance", async () => {
    expect((await messages(twap({ profile_id: "" }))).profile_id).toBe("Choose the profile that places the order");
    const context = {
      balancesOf: () => [{ asset: "USD", available: "1000.00", total: "1000.00" }],
      nickname: () => "Trading",
    };
    const result = await ticketResolver(twap(), context, options);
    expect((result.errors.base_amount as { message: string }).message).toBe(
      "Buy 2 BTC at 66,000.00 USD needs 132,000.00 USD: Trading has 1,000.00 USD available",
    );
  });

  it("is weighed by the review's dry run as the controls weigh it: its whole at its cap, immediate or cancel", () => {
    const request = {
      profile_id: "trading",
      market: "BTCUSD",
      side: "SELL",
      base_amount: "2",
      strategy: "TWAP",
      duration_seconds: 600,
      slices: 10,
      limit_price: "60000",
    } as const;
    expect(wholeOrderOf(request)).toEqual({
      market: "BTCUSD",
      side: "SELL",
      type: "LIMIT",
      time_in_force: "IOC",
      base_amount: "2",
      price: "60000",
    });
  });
});
