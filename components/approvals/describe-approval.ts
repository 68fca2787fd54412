import { describeOrder } from "@/components/orders/describe-order";
import { describeParentOrder, type ParentWordsOf } from "@/components/orders/describe-parent-order";
import { describeTransfer } from "@/components/transfers/describe-transfer";
import type { Approval } from "@/lib/shared/approval";
import type { CreateOrderRequest } from "@/lib/spec/order";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";
import { describeBatchApproval } from "./batch-words";

/** The request in the words of its review step, with the profiles' nicknames; a policy change's own words. */
export function describeApproval(a: Approval, nickname: (id: string) => string): string {
  if (a.kind === "policy") return "Change the desk's policy.";
  if (a.kind === "batch") return describeBatchApproval(a, nickname);
  if (a.kind === "parent_order")
    return `${describeParentOrder(a.request as unknown as ParentWordsOf)}, from ${nickname(a.profile_id)}.`;
  return a.kind === "order"
    ? describeOrder(a.request as unknown as CreateOrderRequest, nickname(a.profile_id))
    : describeTransfer(a.request as unknown as CreateInternalTransferRequest, {
        from: nickname(String(a.request.from_profile_id)),
        to: nickname(String(a.request.to_profile_id)),
      });
}
