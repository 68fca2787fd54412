import type { FieldErrors } from "react-hook-form";
import { parseAmountInput } from "@/lib/shared/format";
import { newRefId } from "@/lib/shared/ref-id";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";
import { duplicateKey, metadataOf, type MetadataRow } from "../forms/metadata";
import { specResolver, type FormOutput } from "../forms/spec-resolver";

/** The transfer form's fields as the browser holds them: text, named like the request's fields. */
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

/** What the transfer form hands over: the request. */
export type TransferOutput = FormOutput<CreateInternalTransferRequest>;

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

/** The request the form would send: filled fields only, metadata as objects, a grouped amount ("1,000,000") plain. */
export function toTransferRequest(v: TransferValues): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const field of TEXT) if (v[field].trim()) request[field] = v[field].trim();
  if (request.amount) request.amount = parseAmountInput(v.amount);
  const metadata = metadataOf(v.metadata);
  const recipient = metadataOf(v.recipient_metadata);
  if (metadata) request.metadata = metadata;
  if (recipient) request.recipient_metadata = recipient;
  return request;
}

/** The form's own rules beyond the service's: unique keys in each metadata editor. */
function transferErrors(v: TransferValues): FieldErrors<TransferValues> {
  const errors: FieldErrors<TransferValues> = {};
  for (const field of ["metadata", "recipient_metadata"] as const) {
    const repeated = duplicateKey(v[field]);
    if (repeated) errors[field] = { type: "duplicate", message: `Key "${repeated}" is used twice` };
  }
  return errors;
}

/** The form checked against lib/spec's Create Internal Transfer schema; it hands over the request. */
export const transferResolver = specResolver<TransferValues, CreateInternalTransferRequest, TransferOutput>({
  schema: () => import("@/lib/spec/transfer").then((m) => m.createInternalTransferRequestSchema),
  toRequest: toTransferRequest,
  formErrors: transferErrors,
  output: (request) => ({ request }),
  checks: () =>
    import("../forms/funds").then(({ transferShortfall }) => (request, _values, context) => {
      const short = transferShortfall(request, context);
      return short ? { amount: { type: "funds", message: short } } : {};
    }),
});
