"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { useEffect, useRef } from "react";
import { approvalKeys, fetchApprovals, FEED_EVERY_MS, type Approval } from "@/lib/client/approval-feed";
import { pollWhileDown } from "@/lib/client/live-status";
import { Time } from "@/lib/client/time-zone";
import { formatUsd } from "@/lib/shared/format";
import type { Policy } from "@/lib/shared/policy";
import { askedAgainst, changeWords, proposalChanges } from "@/lib/shared/policy-changes";
import { requestedBy, proposalOf, waitingPolicyChanges } from "./waiting-change-words";

/**
 * The policy changes waiting for approval (GET /api/approvals?status=PENDING, kind "policy"), as
 * the Approvals page's Waiting tab reads them: the same query, read again on each `approval`
 * event of the live stream, and when the first of them expires.
 */
export function useWaitingPolicyChanges() {
  const list = useQuery({
    queryKey: approvalKeys.list("PENDING"),
    queryFn: ({ signal }) => fetchApprovals("PENDING", signal),
    refetchInterval: pollWhileDown(FEED_EVERY_MS),
  });
  const waiting = list.data && waitingPolicyChanges(list.data);
  useReadAgainAtExpiry(waiting);
  return { ...list, waiting };
}

/**
 * Reads the pending list again once the first waiting change's time is up: the server expires it
 * when read, and the notice goes.
 */
function useReadAgainAtExpiry(waiting: Approval[] | undefined) {
  const client = useQueryClient();
  const first = waiting?.map((a) => Date.parse(a.expires_at)).sort((a, b) => a - b)[0];
  useEffect(() => {
    if (first === undefined) return;
    // setTimeout takes at most 2^31 - 1 ms; a change is open a day.
    const wait = Math.min(Math.max(first - Date.now(), 0) + 1_000, 2 ** 31 - 1);
    const timer = setTimeout(() => void client.invalidateQueries({ queryKey: approvalKeys.list("PENDING") }), wait);
    return () => clearTimeout(timer);
  }, [first, client]);
}

/**
 * Reads the policy in force again each time the pending list (read at `listReadAt`) is read again:
 * a decision (an `approval` event) may have applied a change. The approval is announced once
 * decided and again once applied, so the read after the second sees the policy applied.
 */
export function useReadPolicyOnDecisions(listReadAt: number, policyKey: readonly unknown[]) {
  const client = useQueryClient();
  const last = useRef(listReadAt);
  useEffect(() => {
    const before = last.current;
    last.current = listReadAt;
    // 0: the list's first read, which the policy's own first read goes with.
    if (before !== 0 && listReadAt !== before) void client.invalidateQueries({ queryKey: policyKey });
  }, [listReadAt, policyKey, client]);
}

/** Each change waiting: who asked and when, what it changes, its expiry, and where to decide it. */
export function WaitingChanges({ approvals, inForce }: { approvals: Approval[]; inForce: Policy }) {
  if (approvals.length === 0) return null;
  return (
    <ul aria-label="Policy changes waiting for approval" data-testid="policy-waiting" className="space-y-3">
      {approvals.map((a) => (
        <li key={a.id}>
          <WaitingChange approval={a} inForce={inForce} />
        </li>
      ))}
    </ul>
  );
}

function WaitingChange({ approval: a, inForce }: { approval: Approval; inForce: Policy }) {
  const proposal = proposalOf(a);
  const headingId = `waiting-${a.id}`;
  return (
    <article
      aria-labelledby={headingId}
      data-approval-id={a.id}
      className="rounded-lg border border-warn/40 bg-warn-soft p-4 text-sm"
    >
      <h2 id={headingId} className="font-semibold text-warn">
        Waiting for approval: a change to the policy
      </h2>
      <ul className="mt-2 list-disc pl-5">
        {proposalChanges(proposal, formatUsd).map((c) => (
          <li key={c.field}>
            {changeWords(c)}
            {c.loosens ? " (loosens)" : ""}
          </li>
        ))}
      </ul>
      <p className="mt-2">
        {requestedBy(a)} at <Time iso={a.created_at} />. Not in force until an approver or another admin approves it; it
        expires <Time iso={a.expires_at} /> if nobody decides it.
      </p>
      {!askedAgainst(proposal, inForce) && (
        <p className="mt-1 font-semibold">
          The policy in force changed since it was asked: approving it would not apply it. Ask again against the policy
          in force.
        </p>
      )}
      <p className="mt-2">
        <IntentLink href="/approvals" className="font-medium text-brand underline underline-offset-2">
          See it on Approvals
        </IntentLink>
      </p>
    </article>
  );
}
