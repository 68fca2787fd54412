import * as z from "zod/mini";
import { cryptoNetworkSchema, transferDirectionSchema, transferStatusSchema, transferTypeSchema } from "./enum-schemas";
import { identifier, metadataSchema, positiveDecimal, recordDecimal, refIdSchema, text } from "./fields";

/** An asset code such as USD or BTC. */
export const assetSchema = text("Asset").check(
  z.regex(/^[A-Z0-9]{2,12}$/, "Asset must be an asset code of 2 to 12 capital letters or digits, such as USD or BTC"),
);

/** The Create Internal Transfer request (`POST /transfer/internal`). */
export const createInternalTransferRequestSchema = z
  .strictObject({
    from_profile_id: identifier("From profile"),
    to_profile_id: identifier("To profile"),
    amount: positiveDecimal("Amount"),
    asset: assetSchema,
    ref_id: z.optional(refIdSchema),
    metadata: z.optional(metadataSchema("Metadata")),
    recipient_metadata: z.optional(metadataSchema("Recipient metadata")),
    from_identity_id: z.optional(identifier("From identity ID")),
    from_account_id: z.optional(identifier("From account ID")),
    to_identity_id: z.optional(identifier("To identity ID")),
    to_account_id: z.optional(identifier("To account ID")),
  })
  .check(
    z.superRefine(
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
    ),
  );

export type CreateInternalTransferRequest = z.infer<typeof createInternalTransferRequestSchema>;

const jsonObject = z.record(z.string(), z.unknown());

/** The Transfer record as the service returns it. Unknown fields pass through. */
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
  identity_id: z.optional(z.string()),
  account_id: z.optional(z.string()),
  ref_id: z.optional(z.string()),
  balance_asset: z.optional(z.string()),
  secondary_status: z.optional(jsonObject),
  status_details: z.optional(jsonObject),
  metadata: z.optional(z.record(z.string(), z.string())),
  destination_address: z.optional(z.string()),
  crypto_network: z.optional(cryptoNetworkSchema),
  crypto_tx_hash: z.optional(z.string()),
  crypto_tx_index: z.optional(z.string()),
  auto_conversion: z.optional(jsonObject),
  group_id: z.optional(z.string()),
  fiat_account_id: z.optional(z.string()),
  notional_value: z.optional(recordDecimal),
  memo: z.optional(z.string()),
});

export type Transfer = z.infer<typeof transferRecordSchema>;
