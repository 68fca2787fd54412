import type { ApprovalRule, CreateKind, Policy } from "./policy";
import { can, type Role } from "./roles";

/**
 * A request held for four eyes, as `GET /api/approvals/{id}` answers it: a create (an order or
 * an internal transfer; a create that needs approval answers, with 202, as `{"approval": …}`),
 * or a change of the policy that loosens the controls (`kind: "policy"`). Shared by the back
 * end that keeps it and the pages that show it.
 */

export const APPROVAL_STATUSES = ["PENDING", "APPROVED", "REJECTED", "EXPIRED", "WITHDRAWN"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * What may be held: the two creates, a batch of transfers (one approval for the whole), a TWAP
 * parent order (one approval for all its children), and a policy change.
 */
export type ApprovalKind = CreateKind | "batch" | "parent_order" | "policy";

/** A policy change's rule: always one approval by someone else, open a day. */
export interface PolicyApprovalRule {
  kind: "policy";
  approvals_needed: 1;
  open_minutes: number;
}

/** A held policy change's request: the policy in force when it was asked, and the one proposed. */
export interface PolicyProposal {
  before: Policy;
  after: Policy;
}

export interface Approval {
  id: string;
  status: ApprovalStatus;
  kind: ApprovalKind;
  /**
   * The order's or the transfer's request, ref_id included (an order's profile beside it); for
   * a policy change, `PolicyProposal`.
   */
  request: Record<string, unknown>;
  /** The order's profile or the transfer's sending profile; "" for a policy change. */
  profile_id: string;
  /** The create's value in USD when it was asked; null when no market prices it (or for a policy). */
  value_usd: string | null;
  rule: ApprovalRule | PolicyApprovalRule;
  /** Why it is held, when the rule alone does not say: "no USD price", a rolling 24 h total. */
  hold_reason: string | null;
  requested_by: string;
  requested_name: string;
  requested_role: string;
  created_at: string;
  expires_at: string;
  approvals_needed: number;
  approvals: { by: string; role: string; at: string }[];
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
  /**
   * What happened when it was sent: the service's status and record or problem; or the
   * refusal of the controls checked again at send (then nothing was sent); for a policy
   * change, the policy applied or why not.
   */
  outcome: { status: number; body: unknown; sent?: boolean } | null;
}

/** The answer of a create that waits for approval (202). */
export interface Held {
  approval: Approval;
}

export const isHeld = (answer: unknown): answer is Held =>
  typeof answer === "object" && answer !== null && "approval" in answer;

export const isPolicyApproval = (a: Approval): a is Approval & { kind: "policy"; rule: PolicyApprovalRule } =>
  a.kind === "policy";

/**
 * Whether this person may decide the request, approve it or reject it: a role that approves
 * (`withRole("approve")` on the routes), and never the person who asked for it, four eyes
 * (lib/server/approvals/decisions.ts). A policy change alike: an approver or another admin.
 */
export const mayDecide = (a: Pick<Approval, "requested_by">, person: { email: string; role: Role }): boolean =>
  can(person.role, "approve") && person.email.toLowerCase() !== a.requested_by.toLowerCase();

/** The words for a held create whose asset no market prices in USD. */
export const NO_USD_PRICE = "no USD price";
