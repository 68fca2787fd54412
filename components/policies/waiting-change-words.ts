import { isPolicyApproval, type Approval, type PolicyProposal } from "@/lib/shared/approval";

/** The policy changes among `approvals` still waiting for a decision, in the order they were asked. */
export const waitingPolicyChanges = (approvals: readonly Approval[]): Approval[] =>
  approvals
    .filter((a) => a.status === "PENDING" && isPolicyApproval(a))
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));

/** A held policy change's request: the policy it was asked against, and the one proposed. */
export const proposalOf = (a: Approval): PolicyProposal => a.request as unknown as PolicyProposal;

/** "Requested by Avery Admin (admin@example.com)", the time after it: the approvals' own words for who asked. */
export const requestedBy = (a: Approval): string => `Requested by ${a.requested_name} (${a.requested_by})`;
