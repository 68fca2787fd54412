import "server-only";
import type { CreateKind } from "@/lib/shared/policy";
import { otherRecipientOf } from "@/lib/shared/recipient-profile";
import { type CreateInternalTransferRequest, type CreateOrderRequest } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { canonicalJson } from "../canonical-json";
import { isSameOrder, isSameTransfer } from "../upstream/same-record";

/**
 * A create in flight, the one shape every step of the create path passes on (parse, bind the
 * ref_id, the repeat question, the controls' verdict, hold or send once): which of the
 * service's two creates, the profile it acts on, and the validated request as it is sent,
 * ref_id included.
 */
export type Create =
  | { kind: "order"; profileId: string; request: CreateOrderRequest & { ref_id: string } }
  | { kind: "transfer"; profileId: string; request: CreateInternalTransferRequest & { ref_id: string } };

export type { CreateKind };

/** Who asks, from where, and what they confirmed: what the steps and the audit trail need. */
export interface CreateContext {
  user: SignedInUser;
  ip: string | null;
  /** The market's name, typed to confirm an order past the price guard (header Confirm-Price-Guard). */
  confirmedMarket?: string | null;
  /** The Confirm-Duplicate header: the ref_id of the recent create the person chose to repeat. */
  confirmRepeatOf?: string | null;
}

/** What the route relays: the status and the record, problem or `{approval}`. */
export interface CreateResult {
  status: number;
  body: unknown;
}

export const refIdOf = (create: Create): string => create.request.ref_id;

/** The service's path for this create. */
export const pathOf = (create: Create): string =>
  create.kind === "order" ? `/profiles/${create.profileId}/orders` : "/transfer/internal";

/** The transfer's receiving profile; undefined for an order. */
export const toProfileOf = (create: Create): string | undefined =>
  create.kind === "transfer" ? create.request.to_profile_id : undefined;

/**
 * The profile an order settles into when it is not the order's own (its recipient_profile_id):
 * such an order moves money between profiles, and the controls weigh it as a transfer too.
 * Undefined for any other order, and for a transfer (which is one already).
 */
export const recipientElsewhereOf = (create: Create): string | undefined =>
  create.kind === "order" ? otherRecipientOf(create.profileId, create.request) : undefined;

/** What the audit trail notes of a create weighed as a transfer too: the profile it settles into. */
export function weighedAsTransferNote(create: Create): { weighed_as_transfer?: { recipient_profile_id: string } } {
  const recipient = recipientElsewhereOf(create);
  return recipient ? { weighed_as_transfer: { recipient_profile_id: recipient } } : {};
}

/**
 * True when a stored request (journal or approval) under this ref_id is this very create: the
 * same profile and the same request, compared as canonical JSON. "One request per ref_id."
 */
export const isSameCreate = (create: Create, profileId: string, request: unknown): boolean =>
  profileId === create.profileId && canonicalJson(request) === canonicalJson(create.request);

/**
 * True when `record`, found at the service by our ref_id (or carried by its 409), is the order
 * or transfer this create describes, compared by meaning (lib/server/upstream/same-record.ts).
 */
export const isRecordOf = (create: Create, record: unknown): boolean =>
  create.kind === "order"
    ? isSameOrder(create.profileId, create.request, record)
    : isSameTransfer(create.request, record);
