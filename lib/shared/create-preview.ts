import type { Problem } from "@/lib/spec/problem";
import { formatUsd } from "./format";
import type { ApprovalRule, CreateKind } from "./policy";
import type { PriceGuard } from "./price-guard";
import type { Role } from "./roles";

/**
 * What the desk's controls would do with a create if it were sent now: the back end's dry run
 * (POST /api/orders/preview, /api/transfers/preview), weighed by the very verdict a create
 * meets (lib/server/create/controls/verdict.ts), with the person's rolling total, limits and
 * funds. Nothing is written. The review shows it before anything is sent; the send itself is
 * weighed again, so a preview that went stale is never what decides.
 */
export type CreatePreview =
  | ({ outcome: "send" } & Weighed)
  | ({ outcome: "hold"; hold: HoldPreview } & Weighed)
  | ({ outcome: "refuse"; problem: Problem } & Weighed);

interface Weighed {
  kind: CreateKind;
  /** The create's worth in USD at the service's prices now; null when no market prices the asset. */
  value_usd: string | null;
  /** Past the price guard: the market's name will be asked for, typed, before it is sent. */
  price_guard: PriceGuard | null;
  /**
   * An order that settles into another profile (its recipient_profile_id): it moves money between
   * profiles, so it needs the right to transfer and counts toward the transfer limits and rules too.
   */
  weighed_as_transfer: boolean;
}

export interface HoldPreview {
  rule: ApprovalRule;
  /** Why a create below the rule's threshold is held: the rolling total, or an unpriced asset. */
  reason: string | null;
  /** The person's rolling 24 h total of what they sent without approval, with this create, of the rule's kind. */
  rolling_total_usd: string | null;
  /** The roles whose members may approve it (never the requester). */
  approvers: Role[];
  /** When it would expire unapproved, if held now. */
  expires_at: string;
  /** A market order takes its price when it is approved and sent, not now. */
  price_decided_at_approval: boolean;
}

/** The review's lines for a held create: the rule, the total that reached it, who decides, until when. */
export function holdWords(hold: HoldPreview, until: string): string[] {
  const { rule } = hold;
  const who = rule.approvals_needed === 1 ? "an approver" : "two approvers";
  // The rule's own kind: an order settling into another profile may be held by a transfer rule.
  const lines = [
    `Needs approval by ${who} before it is sent (${rule.kind}s of ${formatUsd(rule.threshold_usd)} or more).`,
  ];
  if (hold.reason) lines.push(`${hold.reason}.`);
  const roles = hold.approvers.map((r) => `an ${r}`).join(" or ");
  lines.push(`It waits for ${roles || "an approver"} other than you until ${until}; unapproved by then, it expires.`);
  if (hold.price_decided_at_approval) {
    lines.push("A market order takes its price when it is approved and sent, not the price now.");
  }
  return lines;
}
