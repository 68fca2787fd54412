import "server-only";
import { compareDecimal, createInternalTransferRequestSchema, type Transfer } from "@/lib/spec";
import { newRefId } from "@/lib/ref-id";
import type { SignedInUser } from "../auth/session";
import { findByRefId } from "./by-ref";
import { SCOPE } from "./upstream";
import { createOnce } from "./create";
import { parseOr400 } from "./validate";

/** Create Internal Transfer through the journal. */
export function createInternalTransfer(input: unknown, user: SignedInUser) {
  const request = parseOr400(createInternalTransferRequestSchema, input);
  const body = { ...request, ref_id: request.ref_id ?? newRefId() };
  return createOnce(
    {
      kind: "transfer",
      path: "/transfer/internal",
      scopes: SCOPE.writeTransfer,
      body,
      profileId: body.from_profile_id,
      toProfileId: body.to_profile_id,
      findByRef: () => findByRefId("transfer", body.ref_id),
      matches: (record) => {
        const t = record as Partial<Transfer>;
        return (
          t.profile_id === body.from_profile_id &&
          t.asset === body.asset &&
          compareDecimal(t.amount ?? "0", body.amount) === 0
        );
      },
    },
    user,
  );
}
