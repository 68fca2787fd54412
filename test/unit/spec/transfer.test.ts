import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createInternalTransferRequestSchema, transferRecordSchema } from "@/lib/spec";
import { chars, errorsOf, expectAccepted, expectRefused, pairs } from "./helpers";

const schema = createInternalTransferRequestSchema;
const accepted = (input: unknown) => expectAccepted(schema, input);
const refused = (input: unknown, field: string, message?: RegExp) => expectRefused(schema, input, field, message);

const valid = { from_profile_id: "treasury", to_profile_id: "settlement", amount: "1000.50", asset: "USD" };
const without = (key: string) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key));

describe("Create Internal Transfer request", () => {
  it("accepts the required fields", () => accepted(valid));
  it("accepts every optional field", () =>
    accepted({
      ...valid,
      ref_id: "ops-2026-11-22-001",
      metadata: pairs(6),
      recipient_metadata: pairs(6),
      from_identity_id: "i1",
      from_account_id: "a1",
      to_identity_id: "i2",
      to_account_id: "a2",
    }));

  it.each([
    ["from_profile_id", /From profile is required/],
    ["to_profile_id", /To profile is required/],
    ["amount", /Amount is required/],
    ["asset", /Asset is required/],
  ])("requires %s", (field, message) => refused(without(field), field, message));

  it("refuses sending to the same profile", () =>
    refused({ ...valid, to_profile_id: "treasury" }, "to_profile_id", /must differ from the from profile/));

  it.each(["-5", "0", "1e3", "1,000", " 5", "abc"])("refuses the amount %j", (amount) =>
    refused({ ...valid, amount }, "amount"),
  );
  it("refuses an amount sent as a number", () => refused({ ...valid, amount: 5 }, "amount", /string/));

  it.each(["usd", "U", "US-D", "", chars(13, "A")])("refuses the asset %j", (asset) =>
    refused({ ...valid, asset }, "asset", /asset code/),
  );

  it.each(["metadata", "recipient_metadata"])("%s allows 6 pairs and refuses 7", (field) => {
    accepted({ ...valid, [field]: pairs(6) });
    refused({ ...valid, [field]: pairs(7) }, field, /at most 6 pairs/);
  });
  it.each(["metadata", "recipient_metadata"])("%s allows 100 characters and refuses 101", (field) => {
    accepted({ ...valid, [field]: { [chars(100)]: chars(100) } });
    refused({ ...valid, [field]: { k: chars(101) } }, `${field}.k`, /longer than 100/);
    refused({ ...valid, [field]: { [chars(101)]: "v" } }, `${field}.${chars(101)}`, /longer than 100/);
  });
  it("names recipient metadata as such", () =>
    refused({ ...valid, recipient_metadata: pairs(7) }, "recipient_metadata", /^Recipient metadata/));

  it("refuses a profile id that could escape a URL path", () => {
    refused({ ...valid, from_profile_id: "../admin" }, "from_profile_id");
    refused({ ...valid, to_profile_id: "a/b" }, "to_profile_id");
  });
  it("refuses unknown fields", () => refused({ ...valid, fee: "0" }, "fee", /Unknown field/));
  it("reports every problem at once", () => {
    const fields = errorsOf(schema, { from_profile_id: "x", to_profile_id: "x", amount: "0", asset: "usd" }).map(
      (e) => e.field,
    );
    expect(fields.sort()).toEqual(["amount", "asset", "to_profile_id"]);
  });
});

describe("the Transfer record", () => {
  const debit = {
    id: "5ab7e995-5589-4b3f-a333-c14b42ac6eaf",
    customer_id: "66325f47-455d-4e0c-9d38-70c047b41dbe",
    profile_id: "0acfa5a6-6f2e-41af-a833-48e301197ffd",
    amount: "10",
    total: "10",
    fee: "0",
    asset: "BTC",
    balance_asset: "BTC",
    direction: "DEBIT",
    type: "INTERNAL_TRANSFER_DEBIT",
    status: "PENDING",
    created_at: "2022-04-28T22:07:56.436854Z",
    updated_at: "2022-04-28T22:07:56.436854Z",
    metadata: { my_id: "x" },
    auto_conversion: {},
    group_id: "55e98066-d9ad-483b-9f10-d3aa252ebbe3",
  };
  it("accepts the service's DEBIT record", () => expect(transferRecordSchema.safeParse(debit).success).toBe(true));
  it.each([
    "id",
    "customer_id",
    "profile_id",
    "amount",
    "total",
    "fee",
    "asset",
    "direction",
    "type",
    "status",
    "created_at",
    "updated_at",
  ])("requires %s", (field) => {
    const rest = Object.fromEntries(Object.entries(debit).filter(([k]) => k !== field));
    expect(transferRecordSchema.safeParse(rest).success).toBe(false);
  });
});

describe("hostile fields (issue 12)", () => {
  const base = { from_profile_id: "a", to_profile_id: "b", amount: "1", asset: "USD" };
  const parse = (raw: string) => z.safeParse(createInternalTransferRequestSchema, JSON.parse(raw));

  it.each(["__proto__", "constructor", "prototype"])("refuses a %s key in metadata by name", (key) => {
    for (const field of ["metadata", "recipient_metadata"]) {
      const pairs = [`"${key}":"x"`, ...Array.from({ length: 6 }, (_, i) => `"k${i}":"v"`)].join(",");
      const result = parse(JSON.stringify(base).replace(/}$/, `,"${field}":{${pairs}}}`));
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((i) => i.path.join("."))).toContain(`${field}.${key}`);
    }
  });

  it("counts leading zeros toward an amount's length", () => {
    expect(parse(JSON.stringify({ ...base, amount: `${"0".repeat(100_000)}10` })).success).toBe(false);
    expect(parse(JSON.stringify({ ...base, amount: `${"9".repeat(20)}.${"9".repeat(18)}` })).success).toBe(true);
    expect(parse(JSON.stringify({ ...base, amount: `0${"9".repeat(20)}.${"9".repeat(18)}` })).success).toBe(false);
  });
});
