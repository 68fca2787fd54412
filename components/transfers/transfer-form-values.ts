import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, Resolver } from "react-hook-form";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";
import { duplicateKey, metadataOf, type MetadataRow } from "../forms/metadata";
import { newRefId } from "@/lib/ref-id";

export interface TransferValues {
  from_profile_id: string;
  to_profile_id: string;
  asset: string;
  amount: string;
  ref_id: string;
  metadata: MetadataRow[];
  recipient_metadata: MetadataRow[];
  from_identity_id: string;
  from_account_id: string;
  to_identity_id: string;
  to_account_id: string;
}

export const transferDefaults = (): TransferValues => ({
  from_profile_id: "",
  to_profile_id: "",
  asset: "USD",
  amount: "",
  ref_id: newRefId(),
  metadata: [],
  recipient_metadata: [],
  from_identity_id: "",
  from_account_id: "",
  to_identity_id: "",
  to_account_id: "",
});

const TEXT = [
  "from_profile_id",
  "to_profile_id",
  "asset",
  "amount",
  "ref_id",
  "from_identity_id",
  "from_account_id",
  "to_identity_id",
  "to_account_id",
] as const;

/** The request the form would send: filled fields only, metadata as objects. */
function toTransferRequest(v: TransferValues): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const field of TEXT) if (v[field].trim()) request[field] = v[field].trim();
  const metadata = metadataOf(v.metadata);
  const recipient = metadataOf(v.recipient_metadata);
  if (metadata) request.metadata = metadata;
  if (recipient) request.recipient_metadata = recipient;
  return request;
}

/** react-hook-form's zod resolver on lib/spec's Create Internal Transfer schema. */
export const transferResolver: Resolver<TransferValues, unknown, CreateInternalTransferRequest> = async (
  values,
  context,
  options,
) => {
  // The schema (and zod with it) loads on the first check, not with the page.
  const { createInternalTransferRequestSchema } = await import("@/lib/spec/transfer");
  const check = zodResolver(createInternalTransferRequestSchema);
  const result = await check(toTransferRequest(values) as never, context, {
    ...options,
    fields: {},
    names: undefined,
    shouldUseNativeValidation: false,
  });
  const errors: FieldErrors<TransferValues> = { ...(result.errors as FieldErrors<TransferValues>) };
  for (const field of ["metadata", "recipient_metadata"] as const) {
    const repeated = duplicateKey(values[field]);
    if (repeated) errors[field] = { type: "duplicate", message: `Key "${repeated}" is used twice` };
  }
  if (Object.keys(errors).length > 0) return { values: {} as Record<string, never>, errors };
  return { values: result.values as unknown as CreateInternalTransferRequest, errors: {} };
};
