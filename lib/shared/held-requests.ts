import type { CreateOrderRequest } from "@/lib/spec/order";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";
import type { Page } from "./list-routes";

/**
 * Creates the desk's four eyes hold (PENDING approvals, not sent to the service) as the blotters
 * show them: the first page of GET /api/orders and GET /api/transfers carries the matching ones
 * in `held`, beside the service's `items`, and the tables draw them as rows on top, "Awaiting
 * approval". The service has no such status: AWAITING_APPROVAL is the dashboard's own filter
 * value, answered from the approvals table and never sent to the service.
 */

export const AWAITING_APPROVAL = "AWAITING_APPROVAL";
export type AwaitingApproval = typeof AWAITING_APPROVAL;

/** A held create: the request as asked, who asked and when, and when its approval expires. */
export interface HeldRequest<R> {
  approval_id: string;
  ref_id: string;
  /** The order's profile, or the transfer's sending profile. */
  profile_id: string;
  requested_by: string;
  requested_name: string;
  requested_role: string;
  requested_at: string;
  expires_at: string;
  /** What it was worth in USD when asked; null when no market prices it. */
  value_usd: string | null;
  request: R;
}

export type HeldOrder = HeldRequest<CreateOrderRequest>;
export type HeldTransfer = HeldRequest<CreateInternalTransferRequest>;

/** A list route's page with the held requests, present on the first page only. */
export type PageWithHeld<T, H> = Page<T> & { held?: H[] };

/** A table row that is a held request rather than a record of the service's. */
export const isHeldRow = <H extends HeldRequest<unknown>>(row: object): row is H => "approval_id" in row;

export const heldRowKey = (h: Pick<HeldRequest<unknown>, "approval_id">): string => `held:${h.approval_id}`;

/** Where the approvals page shows the request: its card's anchor. */
export const approvalHref = (approvalId: string): string => `/approvals#${approvalAnchor(approvalId)}`;

/** The id of the element that shows the request on the Approvals page. */
export const approvalAnchor = (approvalId: string): string => `approval-${approvalId}`;

/** Whether a status filter asks for held requests: none set, or AWAITING_APPROVAL among them. */
export const wantsHeld = (statuses: readonly string[] | undefined): boolean =>
  !statuses || statuses.length === 0 || statuses.includes(AWAITING_APPROVAL);

/**
 * The legs a held internal transfer would make once sent (DEBIT from the sender, CREDIT to the
 * receiver), so the transfers' leg filters (profile, type, asset) and the CSV's one row per leg
 * apply to it as to the legs the service lists.
 */
export function heldLegs(h: HeldTransfer) {
  const { from_profile_id, to_profile_id, asset, amount } = h.request;
  return [
    { direction: "DEBIT", type: "INTERNAL_TRANSFER_DEBIT", profile_id: from_profile_id, asset, amount },
    { direction: "CREDIT", type: "INTERNAL_TRANSFER_CREDIT", profile_id: to_profile_id, asset, amount },
  ] as const;
}

export type HeldLeg = ReturnType<typeof heldLegs>[number];
