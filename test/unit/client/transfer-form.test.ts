import { describe, expect, it } from "vitest";
import {
  transferDefaults,
  transferResolver,
  toTransferRequest,
  type TransferValues,
} from "@/components/transfers/transfer-form-values";

const options = { fields: {}, shouldUseNativeValidation: false, criteriaMode: "firstError", names: undefined } as never;
const transfer = (over: Partial<TransferValues>): TransferValues => ({
  ...transferDefaults(),
  from_profile_id: "treasury",
  to_profile_id: "settlement",
  amount: "5",
  ...over,
});
const resolve = (v: TransferValues) => transferResolver(v, undefined, options);

describe("the transfer form's request", () => {
  it("sends filled fields only, trimmed, and metadata as objects", () => {
    const request = toTransferRequest(
      transfer({
        amount: " 5 ",
        ref_id: " ",
        from_identity_id: "",
        metadata: [
          { key: "", value: "" },
          { key: "desk", value: "ops" },
        ],
      }),
    );
    expect(request).toEqual({
      from_profile_id: "treasury",
      to_profile_id: "settlement",
      asset: "USD",
      amount: "5",
      metadata: { desk: "ops" },
    });
  });
});

describe("the transfer form's resolver refuses what the service refuses, on the same field", () => {
  it("refuses sending to the same profile, on the destination field", async () => {
    const { errors } = await resolve(transfer({ from_profile_id: "a", to_profile_id: "a" }));
    expect(errors.to_profile_id?.message).toBe("To profile must differ from the from profile");
  });

  it("refuses a 101-character recipient metadata value", async () => {
    const { errors } = await resolve(transfer({ recipient_metadata: [{ key: "k", value: "x".repeat(101) }] }));
    expect(JSON.stringify(errors.recipient_metadata)).toContain("longer than 100 characters");
  });

  it("refuses a repeated key in either metadata editor, beside the schema's own errors", async () => {
    const repeated = [
      { key: "a", value: "1" },
      { key: "a", value: "2" },
    ];
    const { errors } = await resolve(transfer({ amount: "-1", recipient_metadata: repeated }));
    expect(errors.recipient_metadata?.message).toBe('Key "a" is used twice');
    expect(errors.amount?.message).toBeTruthy();
    expect(errors).not.toHaveProperty("metadata");
  });

  it("hands a valid transfer over as the request", async () => {
    const result = await resolve(transfer({ from_profile_id: "a", to_profile_id: "b", ref_id: "t-1" }));
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      request: { from_profile_id: "a", to_profile_id: "b", asset: "USD", amount: "5", ref_id: "t-1" },
    });
  });
});
