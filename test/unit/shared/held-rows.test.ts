import { describe, expect, it } from "vitest";
import { heldLegMatches, heldOrderMatches, heldTransferMatches } from "@/lib/server/lists/held-requests";
import {
  approvalHref,
  AWAITING_APPROVAL,
  heldLegs,
  heldRowKey,
  isHeldRow,
  wantsHeld,
  type HeldOrder,
  type HeldTransfer,
} from "@/lib/shared/held-requests";
import { heldOrderCsvRow, isoUtc, ORDER_CSV_HEADER } from "@/lib/shared/order-rows";
import { heldTransferCsvRow, TRANSFER_CSV_HEADER } from "@/lib/shared/transfer-rows";

/** Held requests as blotter rows and CSV lines: the pure mapping, and the tables' filters on them. */

const asked = {
  approval_id: "0197a1b2-0000-7000-8000-000000000001",
  requested_by: "trader@example.com",
  requested_name: "Trader",
  requested_role: "trader",
  requested_at: "2026-11-23T17:04:28.000Z",
  expires_at: "2026-11-23T19:04:28.000Z",
  value_usd: "199203.00",
};

const sell: HeldOrder = {
  ...asked,
  ref_id: "ref-sell",
  profile_id: "p-trading",
  request: {
    market: "BTCUSD",
    side: "SELL",
    type: "LIMIT",
    price: "66401.00",
    base_amount: "3.00000000",
    time_in_force: "GTT",
    expiration_date: "1795460668000",
    ref_id: "ref-sell",
    metadata: { desk: "fx, rates" },
  },
};

const transfer: HeldTransfer = {
  ...asked,
  requested_by: "ops@example.com",
  requested_role: "ops",
  ref_id: "ref-t",
  profile_id: "p-treasury",
  request: {
    from_profile_id: "p-treasury",
    to_profile_id: "p-settlement",
    asset: "USD",
    amount: "120.00",
    ref_id: "ref-t",
    metadata: { why: "payroll" },
    recipient_metadata: { for: "settlement" },
  },
};

const nickname = (id: string) => id.replace(/^p-/, "").toUpperCase();
const named = (header: string[], row: string[]) => Object.fromEntries(header.map((h, i) => [h, row[i]]));

describe("a held order as a CSV row", () => {
  it("fills the orders' columns from the request, status AWAITING_APPROVAL, with its approval's id, requester and expiry", () => {
    const row = heldOrderCsvRow(sell, nickname);
    expect(row).toHaveLength(ORDER_CSV_HEADER.length);
    expect(named(ORDER_CSV_HEADER, row)).toMatchObject({
      id: "",
      created_at: asked.requested_at,
      modified_at: "",
      profile_id: "p-trading",
      profile: "TRADING",
      market: "BTCUSD",
      side: "SELL",
      type: "LIMIT",
      status: AWAITING_APPROVAL,
      time_in_force: "GTT",
      base_amount: "3.00000000",
      price: "66401.00",
      amount_filled: "",
      // Sent as 13 digits of milliseconds; written as the ISO time every other row has.
      expiration_date: "2026-11-23T19:04:28.000Z",
      ref_id: "ref-sell",
      metadata: '{"desk":"fx, rates"}',
      submitted_by: "",
      approval_id: asked.approval_id,
      requested_by: "trader@example.com",
      approval_expires_at: asked.expires_at,
    });
  });

  it("reads 13 digits of milliseconds as a time, and leaves what it cannot read as it is", () => {
    expect(isoUtc("1795460668000")).toBe("2026-11-23T19:04:28.000Z");
    expect(isoUtc("2026-11-23T20:04:28+01:00")).toBe("2026-11-23T19:04:28.000Z");
    expect(isoUtc("soon")).toBe("soon");
    expect(isoUtc("")).toBe("");
  });
});

describe("a held transfer as rows", () => {
  it("is the two legs it would make: DEBIT from the sender, CREDIT to the receiver", () => {
    expect(heldLegs(transfer).map((l) => [l.direction, l.type, l.profile_id, l.asset, l.amount])).toEqual([
      ["DEBIT", "INTERNAL_TRANSFER_DEBIT", "p-treasury", "USD", "120.00"],
      ["CREDIT", "INTERNAL_TRANSFER_CREDIT", "p-settlement", "USD", "120.00"],
    ]);
  });

  it("writes each leg in the transfers' columns, the ref_id on the DEBIT, each side's metadata", () => {
    const [debit, credit] = heldLegs(transfer).map((leg) => heldTransferCsvRow(transfer, leg, nickname));
    for (const row of [debit!, credit!]) expect(row).toHaveLength(TRANSFER_CSV_HEADER.length);
    const common = {
      group_id: "",
      id: "",
      created_at: asked.requested_at,
      status: AWAITING_APPROVAL,
      fee: "",
      total: "",
      approval_id: asked.approval_id,
      requested_by: "ops@example.com",
      approval_expires_at: asked.expires_at,
    };
    expect(named(TRANSFER_CSV_HEADER, debit!)).toMatchObject({
      ...common,
      direction: "DEBIT",
      profile: "TREASURY",
      amount: "120.00",
      ref_id: "ref-t",
      metadata: '{"why":"payroll"}',
    });
    expect(named(TRANSFER_CSV_HEADER, credit!)).toMatchObject({
      ...common,
      direction: "CREDIT",
      profile: "SETTLEMENT",
      ref_id: "",
      metadata: '{"for":"settlement"}',
    });
  });
});

describe("the tables' filters on held requests", () => {
  it("matches an order by profile, market, side and type", () => {
    expect(heldOrderMatches({})(sell)).toBe(true);
    expect(heldOrderMatches({ profile_id: "p-trading", market: "BTCUSD", side: "SELL", type: "LIMIT" })(sell)).toBe(
      true,
    );
    expect(heldOrderMatches({ side: "BUY" })(sell)).toBe(false);
    expect(heldOrderMatches({ profile_id: "p-treasury" })(sell)).toBe(false);
    expect(heldOrderMatches({ market: "ETHUSD" })(sell)).toBe(false);
    expect(heldOrderMatches({ type: "MARKET" })(sell)).toBe(false);
  });

  it("matches a transfer when a leg it would make matches, and by when it was asked", () => {
    expect(heldTransferMatches({ profile_ids: ["p-settlement"] })(transfer)).toBe(true);
    expect(heldTransferMatches({ profile_ids: ["p-reserve"] })(transfer)).toBe(false);
    expect(heldTransferMatches({ type: "INTERNAL_TRANSFER_CREDIT", asset: "USD" })(transfer)).toBe(true);
    expect(heldTransferMatches({ type: "CRYPTO_DEPOSIT" })(transfer)).toBe(false);
    expect(heldTransferMatches({ asset: "BTC" })(transfer)).toBe(false);
    // The profile of one leg and the type of the other is no leg's.
    expect(heldTransferMatches({ profile_ids: ["p-treasury"], type: "INTERNAL_TRANSFER_CREDIT" })(transfer)).toBe(
      false,
    );
    expect(heldTransferMatches({ from: "2026-11-23T17:04:28Z", to: "2026-11-23T17:04:29Z" })(transfer)).toBe(true);
    expect(heldTransferMatches({ from: "2026-11-23T17:04:29Z" })(transfer)).toBe(false);
    expect(heldTransferMatches({ to: "2026-11-23T18:04:28+01:00" })(transfer)).toBe(false);
    expect(heldLegs(transfer).filter(heldLegMatches({ profile_ids: ["p-settlement"] }))).toHaveLength(1);
  });

  it("wants held requests with no status filter or with AWAITING_APPROVAL, not with the service's alone", () => {
    expect(wantsHeld(undefined)).toBe(true);
    expect(wantsHeld([])).toBe(true);
    expect(wantsHeld([AWAITING_APPROVAL, "PENDING"])).toBe(true);
    expect(wantsHeld(["PENDING"])).toBe(false);
  });
});

describe("held rows in a table", () => {
  it("are told from the service's records, keyed and linked by their approval", () => {
    expect(isHeldRow(sell)).toBe(true);
    expect(isHeldRow({ id: "order-1", status: "OPEN" })).toBe(false);
    expect(heldRowKey(sell)).toBe(`held:${asked.approval_id}`);
    expect(approvalHref(asked.approval_id)).toBe(`/approvals#approval-${asked.approval_id}`);
  });
});
