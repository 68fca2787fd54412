import { describeOrder } from "@/lib/shared/describe-order";
import { describeTransfer } from "@/lib/shared/describe-transfer";
import type { Approval } from "@/lib/shared/approval";
import type { CreateOrderRequest } from "@/lib/spec/order";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";
import { describeBatchApproval } from "./batch-approval-words";
import { describeParentApproval } from "./parent-approval-words";

/** The request in the words of its review step, with the profiles' nicknames; a policy change's own words. */
export function describeApproval(a: Approval, nickname: (id: string) => string): string {
  if (a.kind === "policy") return "Change the desk's policy.";
  if (a.kind === "batch") return describeBatchApproval(a, nickname);
  if (a.kind === "parent_order") return describeParentApproval(a, nickname);
  return a.kind === "order"
    ? describeOrder(a.request as unknown as CreateOrderRequest, nickname(a.profile_id))
    : describeTransfer(a.request as unknown as CreateInternalTransferRequest, {
        from: nickname(String(a.request.from_profile_id)),
        to: nickname(String(a.request.to_profile_id)),
      });
}
