import { z } from "zod";
import { positiveDecimal, recordDecimal } from "./decimal";
import { cryptoNetworkSchema, transferDirectionSchema, transferStatusSchema, transferTypeSchema } from "./enums";
import { identifier, metadataSchema, refIdSchema, text } from "./fields";

/** An asset code such as USD or BTC. */
export const assetSchema = text("Asset").regex(
  /^[A-Z0-9]{2,12}$/,
  "Asset must be an asset code of 2 to 12 capital letters or digits, such as USD or BTC",
);

/** The Create Internal Transfer request (SPEC.md 4.2). */
export const createInternalTransferRequestSchema = z
  .strictObject({
    from_profile_id: identifier("From profile"),
    to_profile_id: identifier("To profile"),
    amount: positiveDecimal("Amount"),
    asset: assetSchema,
    ref_id: refIdSchema.optional(),
    metadata: metadataSchema("Metadata").optional(),
    recipient_metadata: metadataSchema("Recipient metadata").optional(),
    from_identity_id: identifier("From identity ID").optional(),
    from_account_id: identifier("From account ID").optional(),
    to_identity_id: identifier("To identity ID").optional(),
    to_account_id: identifier("To account ID").optional(),
  })
  .superRefine(
    (t, ctx) => {
      if (typeof t.from_profile_id === "string" && t.from_profile_id === t.to_profile_id) {
        ctx.addIssue({
          code: "custom",
          path: ["to_profile_id"],
          message: "To profile must differ from the from profile",
          input: t.to_profile_id,
        });
      }
    },
    { when: () => true },
  );

export type CreateInternalTransferRequest = z.infer<typeof createInternalTransferRequestSchema>;

const jsonObject = z.record(z.string(), z.unknown());

/** The Transfer record as the service returns it (SPEC.md 2.2). Unknown fields pass through. */
export const transferRecordSchema = z.looseObject({
  id: z.string(),
  customer_id: z.string(),
  profile_id: z.string(),
  amount: recordDecimal,
  total: recordDecimal,
  fee: recordDecimal,
  asset: z.string(),
  direction: transferDirectionSchema,
  type: transferTypeSchema,
  status: transferStatusSchema,
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  identity_id: z.string().optional(),
  account_id: z.string().optional(),
  ref_id: z.string().optional(),
  balance_asset: z.string().optional(),
  secondary_status: jsonObject.optional(),
  status_details: jsonObject.optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  destination_address: z.string().optional(),
  crypto_network: cryptoNetworkSchema.optional(),
  crypto_tx_hash: z.string().optional(),
  crypto_tx_index: z.string().optional(),
  auto_conversion: jsonObject.optional(),
  group_id: z.string().optional(),
  fiat_account_id: z.string().optional(),
  notional_value: recordDecimal.optional(),
  memo: z.string().optional(),
});

export type Transfer = z.infer<typeof transferRecordSchema>;
