"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import type { Approval } from "@/lib/shared/approval";
import { api, problemOf } from "@/lib/client/api";
import { approvalKeys, timeLeft } from "@/lib/client/approval-feed";
import { streamUp } from "@/lib/client/live-status";
import { useProfileNames } from "@/lib/client/profile-names";
import { Time } from "@/lib/client/time-zone";
import { isProblem } from "@/lib/spec/problem";
import { describeApproval } from "@/lib/shared/describe-approval";
import { Button } from "../ui/button";
import { ProblemAlert } from "../ui/problem-alert";

/** Decided, and (when approved) sent: nothing more will change. */
const isSettled = (a: Approval) => a.status !== "PENDING" && (a.status !== "APPROVED" || a.outcome !== null);

/**
 * A create held for four eyes: "Awaiting approval" with the approvals so far and a countdown,
 * followed until it is decided; then who decided, and what the service answered when it was
 * sent (`sent` shows the record, as the form's own result card would).
 */
export function AwaitingApproval({
  approval: held,
  sent,
}: {
  approval: Approval;
  sent: (record: unknown) => ReactNode;
}) {
  const latest = useFollowApproval(held);
  const { nickname } = useProfileNames();
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: () =>
      api<{ approval: Approval }>(`/api/approvals/${encodeURIComponent(held.id)}/withdraw`, { method: "POST" }),
    onSuccess: ({ approval }) => queryClient.setQueryData(approvalKeys.one(held.id), approval),
  });

  return (
    <div
      role="status"
      className={`space-y-2 rounded-md border p-3 text-sm ${TONES[toneOf(latest)]}`}
      data-testid="awaiting-approval"
      data-status={latest.status}
    >
      <div className="flex items-center justify-between gap-2">
        <span className="font-semibold" data-testid="approval-status">
          {latest.status === "PENDING" ? "Awaiting approval" : TITLES[latest.status]}
        </span>
        {latest.status === "PENDING" && <Countdown until={latest.expires_at} />}
      </div>
      <p className="font-medium" data-testid="approval-what">
        {describeApproval(latest, nickname)}
      </p>
      {latest.status === "PENDING" ? (
        <>
          <p>
            Needs {latest.approvals_needed === 1 ? "an approval" : `${latest.approvals_needed} approvals`} by an
            approver; {latest.approvals.length} so far. Nothing is sent until then.
          </p>
          <Button variant="secondary" onClick={() => withdraw.mutate()} disabled={withdraw.isPending}>
            Withdraw request
          </Button>
          {withdraw.error && <ProblemAlert problem={problemOf(withdraw.error)} title="Not withdrawn" />}
        </>
      ) : (
        <p data-testid="approval-decision">{decidedWords(latest)}</p>
      )}
      {latest.status === "APPROVED" && latest.outcome && outcomeOf(latest, latest.outcome, sent)}
      <p className="font-mono text-xs text-ink-muted">approval {latest.id}</p>
    </div>
  );
}

/**
 * The approval kept current until it is settled. The notice of its decision comes from the
 * shell's one feed of the person's requests (components/approvals/use-approval-notices.ts).
 */
function useFollowApproval(held: Approval): Approval {
  const { data = held } = useQuery({
    queryKey: approvalKeys.one(held.id),
    queryFn: () => api<{ approval: Approval }>(`/api/approvals/${encodeURIComponent(held.id)}`).then((r) => r.approval),
    initialData: held,
    refetchInterval: (q) => (streamUp() || (q.state.data && isSettled(q.state.data)) ? false : 2_000),
  });
  return data;
}

/**
 * Amber while it waits; the success colour once approved and sent, red when refused or
 * rejected, plain when it ended unsent (amber reads red-brown in the dark theme, so it never
 * stays once the request is decided).
 */
const TONES = {
  waiting: "border-warn/30 bg-warn-soft/40",
  success: "border-buy/30 bg-buy-soft/40",
  error: "border-sell/30 bg-sell-soft/40",
  plain: "border-slate-300 bg-surface-sunken",
} as const;

function toneOf(a: Approval): keyof typeof TONES {
  if (a.status === "PENDING") return "waiting";
  if (a.status === "REJECTED") return "error";
  if (a.status !== "APPROVED") return "plain";
  if (a.outcome === null) return "waiting";
  return a.outcome.status < 300 ? "success" : "error";
}

const TITLES = { APPROVED: "Approved", REJECTED: "Rejected", EXPIRED: "Expired", WITHDRAWN: "Withdrawn" } as const;

function decidedWords(a: Approval): string {
  const by = a.approvals.map((v) => v.by).join(" and ");
  if (a.status === "APPROVED") {
    // Refused when weighed again at send: the alert below says why, and that nothing went.
    if (a.outcome?.sent === false) return `Approved by ${by}.`;
    if (a.kind !== "parent_order") return `Approved by ${by} and sent.`;
    return a.outcome ? `Approved by ${by}: the parent order started working.` : `Approved by ${by}; starting it…`;
  }
  if (a.status === "REJECTED") return `Rejected by ${a.decided_by ?? "an approver"}: ${a.reason ?? "no reason given"}.`;
  if (a.status === "EXPIRED") return "Nobody approved it in time; it was never sent.";
  if (a.status === "WITHDRAWN") return "You withdrew it; it was never sent.";
  return "Awaiting approval.";
}

/** Why nothing went: refused when weighed again at send (nothing was sent), or by the service. */
function refusedTitle(a: Approval, outcome: NonNullable<Approval["outcome"]>): string {
  if (a.kind === "parent_order") return "Approved, but refused when checked again at send: no child order was sent";
  return outcome.sent === false
    ? "Approved, but refused when checked again at send: nothing was sent"
    : "Approved, but the service refused it";
}

function outcomeOf(a: Approval, outcome: NonNullable<Approval["outcome"]>, sent: (record: unknown) => ReactNode) {
  if (outcome.status >= 200 && outcome.status < 300) return sent(outcome.body);
  const problem = isProblem(outcome.body)
    ? outcome.body
    : {
        type: "about:blank",
        title: "Service Error",
        status: outcome.status,
        detail: `The service answered ${outcome.status}.`,
      };
  return <ProblemAlert problem={problem} title={refusedTitle(a, outcome)} />;
}

/** Time left before the request expires, each second. */
function Countdown({ until }: { until: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  // The Approvals page's words for the same countdown.
  const left = timeLeft(Date.parse(until) - now);
  return (
    <span className="text-xs text-ink-muted" data-testid="approval-countdown">
      {left === "expired" ? "expired" : `expires in ${left}`} (<Time iso={until} />)
    </span>
  );
}
