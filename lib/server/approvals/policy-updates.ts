import "server-only";
import type { Approval, PolicyApprovalRule, PolicyProposal } from "@/lib/shared/approval";
import { parseOr400 } from "@/lib/server/http/toolkit";
import { loosensAnything, policyChanges } from "@/lib/shared/policy-changes";
import { policySchema, withDefaults, type Policy } from "@/lib/shared/policy";
import { problem } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { canonicalJson } from "../canonical-json";
import { approvalView, insertApproval, type ApprovalRow } from "../db/approvals";
import { currentPolicy, storePolicy } from "../db/policy";
import type { Runtime } from "../runtime";

/**
 * The desk's policy (lib/shared/policy.ts) and its changes, under four eyes: a change that loosens
 * anything (lib/shared/policy-changes.ts) is held as an approval of kind "policy" and applies only when
 * an approver or another admin approves it (lib/server/approvals/decisions.ts); a change that only
 * tightens applies at once. Every change applied is audited with its before and after.
 */

/** A policy change's rule: one approval by someone else, open a day. */
export const POLICY_RULE: PolicyApprovalRule = { kind: "policy", approvals_needed: 1, open_minutes: 24 * 60 };

export type PolicyAnswer = { status: 200; policy: Policy } | { status: 202; approval: Approval };

/**
 * `PUT /api/policies`: the whole document, checked field by field (a field left out that a
 * newer policy added keeps the value in force). Tightening only: applied (200). Loosening
 * anything: held for a second person (202 with the approval).
 */
export async function replacePolicy(
  rt: Runtime,
  user: SignedInUser,
  input: unknown,
  ip: string | null,
): Promise<PolicyAnswer> {
  const before = await currentPolicy(rt.db);
  const parsed = parseOr400(policySchema, input);
  const next: Policy = {
    ...parsed,
    limits: {
      ...parsed.limits,
      daily_transfer_usd_per_user:
        parsed.limits.daily_transfer_usd_per_user === undefined
          ? before.limits.daily_transfer_usd_per_user
          : parsed.limits.daily_transfer_usd_per_user,
    },
  };
  const changes = policyChanges(before, next);
  if (!loosensAnything(changes)) return { status: 200, policy: await applyPolicy(rt, user, before, next, ip) };
  const request: PolicyProposal = { before, after: next };
  const at = new Date(rt.clock.now());
  // The request and its approval.requested event, together.
  const row = await rt.db
    .transaction()
    .execute((tx) =>
      insertApproval(tx, user, { at, kind: "policy", profileId: "", request, valueUsd: null, rule: POLICY_RULE }),
    );
  await rt.audit.append({
    action: "approval.requested",
    actor: user,
    ip,
    subject: row.id,
    detail: { kind: "policy", before, after: next, loosens: changes.filter((c) => c.loosens).map((c) => c.field) },
  });
  const approval = await approvalView(rt.db, row);
  rt.live.publish({ name: "approval", data: approval });
  return { status: 202, approval };
}

/**
 * The approved change, applied when the policy in force is still the one it was asked against;
 * else nothing changes (another change landed meanwhile: it must be asked again against that).
 */
export async function applyApprovedPolicy(
  rt: Runtime,
  row: ApprovalRow,
  approver: SignedInUser,
  ip: string | null,
): Promise<{ status: number; body: unknown; sent: boolean }> {
  const { before, after } = JSON.parse(row.request_json) as PolicyProposal;
  const now = await currentPolicy(rt.db);
  if (canonicalJson(now) !== canonicalJson(withDefaults(before))) {
    const p = problem(
      409,
      "Policy Changed",
      "The policy changed after this change was asked for, so it was not applied. Ask again against the policy in force.",
    );
    await rt.audit.append({
      action: "approval.send_refused",
      actor: approver,
      ip,
      subject: row.id,
      detail: { kind: "policy", problem: p },
    });
    return { status: 409, body: p, sent: false };
  }
  const requester = { email: row.requested_by, role: row.requested_role };
  const policy = await applyPolicy(rt, requester, now, after, ip, { approval_id: row.id, approved_by: approver.email });
  return { status: 200, body: { policy }, sent: true };
}

async function applyPolicy(
  rt: Runtime,
  actor: { email: string; role: string },
  before: Policy,
  next: Policy,
  ip: string | null,
  approval?: { approval_id: string; approved_by: string },
): Promise<Policy> {
  await storePolicy(rt.db, next, { by: actor.email, at: new Date(), ...approval });
  await rt.audit.append({
    action: "policy.changed",
    actor,
    ip,
    subject: "policy",
    detail: { before, after: next, ...approval },
  });
  return next;
}
