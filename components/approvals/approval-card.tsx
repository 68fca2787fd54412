"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type ComponentProps } from "react";
import { useToast } from "@/components/ui/toasts";
import { Button } from "@/components/ui/button";
import { useArmed } from "@/components/ui/use-armed";
import { Field, inputClass } from "@/components/ui/field";
import { ProblemAlert } from "@/components/ui/problem-alert";
import { StatusBadge } from "@/components/ui/status-badge";
import { api, problemOf } from "@/lib/client/api";
import { isPolicyApproval, type PolicyProposal } from "@/lib/shared/approval";
import { REJECT_REASON_MAX_CHARS } from "@/lib/shared/decisions";
import { approvalKeys, timeLeft, type Approval } from "@/lib/client/approval-feed";
import { formatAmount, formatUsd } from "@/lib/shared/format";
import { useProfileNames } from "@/lib/client/profile-names";
import { Time } from "@/lib/client/time-zone";
import { policyChanges } from "@/lib/shared/policy-changes";
import { can, type Role } from "@/lib/shared/roles";
import type { Problem } from "@/lib/spec/problem";
import { decisionWords, decisionTone, ruleWords } from "./decision-words";
import { ApproverContext } from "./approver-context";
import { BatchSummary } from "./batch-summary";
import { batchRequestOf, batchTitle } from "@/lib/shared/batch-approval-words";
import { approveEffect, approveQuestion, approveVerb, needsConfirming } from "./decision-terms";
import { describeApproval } from "@/lib/shared/describe-approval";
import { ParentOrderSummary } from "./parent-order-summary";
import { PARENT_ORDER_TITLE } from "@/lib/shared/parent-approval-words";

type Decision = { verb: "approve" } | { verb: "reject"; reason: string } | { verb: "withdraw" };

/** The card's title: what kind of request it is. */
const kindTitle = (a: Approval): string => {
  switch (a.kind) {
    case "policy":
      return "Policy change";
    case "order":
      return "Order";
    case "batch":
      return batchTitle(batchRequestOf(a));
    case "parent_order":
      return PARENT_ORDER_TITLE;
    default:
      return "Internal transfer";
  }
};

/** A held policy change's changes, before → after, each saying whether it loosens. */
const policyChangesOf = (a: Approval) => {
  const { before, after } = a.request as unknown as PolicyProposal;
  return policyChanges(before, after, formatUsd);
};

/**
 * One request: what it asks in words, who requested it and when, its countdown while it waits, what an
 * approver needs beside it (the market, the funds, the requester's day), the decisions so far,
 * and what the person may do with it: approve or reject (never their own), or withdraw (their own).
 *
 * Decided here or elsewhere while on screen, the card keeps its place and its height and says
 * the outcome in words where its buttons were, until the person dismisses it (`onDismiss`): the
 * next request's buttons never slide under the pointer.
 */
export function ApprovalCard({
  approval,
  asListed = approval,
  me,
  now,
  onDismiss,
}: {
  /** The request as last read. */
  approval: Approval;
  /** The request as the list showed it (it may have left the list since, decided). */
  asListed?: Approval;
  me: { email: string; role: Role };
  now: number;
  onDismiss?: () => void;
}) {
  const { nickname } = useProfileNames();
  const client = useQueryClient();
  const notify = useToast();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [rejecting, setRejecting] = useState(false);
  // What this person's decision answered: shown until the list reads the request again.
  const [decided, setDecided] = useState<Approval | null>(null);
  // The card's height when the person decided: it never shrinks under their pointer after.
  const article = useRef<HTMLElement>(null);
  const [heldHeight, setHeldHeight] = useState<number | undefined>();
  const decide = useMutation({
    mutationFn: (d: Decision) =>
      api<{ approval: Approval }>(`/api/approvals/${a.id}/${d.verb}`, {
        method: "POST",
        body: d.verb === "reject" ? { reason: d.reason } : {},
      }),
    onMutate: () => {
      setProblem(null);
      setHeldHeight(article.current?.offsetHeight);
    },
    onError: (error) => setProblem(problemOf(error)),
    onSuccess: ({ approval: after }) => {
      setRejecting(false);
      setDecided(after);
      notify({ key: `approval:${after.id}`, title: decisionWords(after, nickname), tone: decisionTone(after) });
    },
    onSettled: () => client.invalidateQueries({ queryKey: approvalKeys.all }),
  });
  // This person's decision's answer until the reads catch up with it (a read may come between the decision and the send's outcome).
  const behind = approval.status === "PENDING" || (approval.outcome === null && decided?.outcome != null);
  const a = decided && behind ? decided : approval;
  const pending = a.status === "PENDING";
  // Decided since the list showed it: the outcome takes the buttons' place, and what it showed
  // above stays as it was (the history as listed), so the card keeps its height.
  const changed = a.status !== asListed.status;
  const forApprover = asListed.status === "PENDING" && a.kind !== "policy" && can(me.role, "approve");
  const mine = a.requested_by === me.email;
  const headingId = useId();
  const left = Date.parse(a.expires_at) - now;

  return (
    <article
      ref={article}
      style={changed && heldHeight ? { minHeight: heldHeight } : undefined}
      aria-labelledby={headingId}
      data-testid="approval"
      data-approval-id={a.id}
      data-status={a.status}
      className={`rounded-lg border bg-surface-raised p-4 ${changed ? DECIDED_BORDER[a.status] : "border-slate-200"}`}
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="flex items-center gap-2 font-semibold">
          {kindTitle(a)}
          {a.value_usd !== null
            ? `, about ${formatAmount(a.value_usd, { min: 2, max: 2 })} USD`
            : a.kind === "policy"
              ? ""
              : ", no USD price"}
          <StatusBadge
            status={a.status}
            title={a.status === "EXPIRED" ? "Not decided before its time ran out" : undefined}
          />
        </h3>
        <div className="flex min-h-8 items-center max-sm:min-h-11 pointer-coarse:min-h-11">
          {changed && onDismiss ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={onDismiss}
              aria-label={`Dismiss: ${decisionWords(a, nickname)}`}
            >
              Dismiss
            </Button>
          ) : (
            pending && (
              <p className="text-sm" data-testid="approval-countdown">
                <span className="text-ink-muted">Expires in </span>
                <span className={`font-semibold tabular-nums ${left < 10 * 60_000 ? "text-sell" : ""}`}>
                  {timeLeft(left)}
                </span>
              </p>
            )
          )}
        </div>
      </header>
      <p className="mt-2" data-testid="approval-sentence">
        {describeApproval(a, nickname)}
      </p>
      {a.kind === "batch" && <BatchSummary approval={a} nickname={nickname} />}
      {a.kind === "parent_order" && <ParentOrderSummary approval={a} />}
      {forApprover && !mine && <ApproverContext approval={a} nickname={nickname} />}
      {isPolicyApproval(a) && (
        <ul className="mt-1 list-disc pl-5 text-sm" data-testid="policy-changes">
          {policyChangesOf(a).map((c) => (
            <li key={c.field}>
              {c.label}: {c.before} → {c.after}
              {c.loosens ? " (loosens)" : ""}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-1 text-sm text-ink-muted">
        Requested by {a.requested_name} ({a.requested_by}, {a.requested_role}){mine ? " — your request" : ""}. Needs{" "}
        {a.approvals_needed === 1 ? "one approval" : `${a.approvals_needed} approvals`} ({ruleWords(a, mine)});{" "}
        {a.approvals.length} so far.
      </p>
      <History approval={changed ? asListed : a} nickname={nickname} />
      {problem && (
        <div className="mt-3">
          <ProblemAlert problem={problem} />
        </div>
      )}
      {changed && (
        <p
          role="status"
          data-testid="approval-result"
          className={`mt-3 flex min-h-9 items-center rounded-md px-3 text-sm font-semibold max-sm:min-h-11 pointer-coarse:min-h-11 ${RESULT_TONES[decisionTone(a)]}`}
        >
          {decisionWords(a, nickname)}
        </p>
      )}
      {pending && !changed && (
        <Actions
          approval={a}
          mine={mine}
          me={me.email}
          canApprove={can(me.role, "approve")}
          nickname={nickname}
          busy={decide.isPending}
          rejecting={rejecting}
          onReject={() => setRejecting(true)}
          onCancelReject={() => setRejecting(false)}
          decide={(d) => decide.mutate(d)}
        />
      )}
    </article>
  );
}

function Actions({
  approval: a,
  mine,
  me,
  canApprove,
  nickname,
  busy,
  rejecting,
  onReject,
  onCancelReject,
  decide,
}: {
  approval: Approval;
  nickname: (id: string) => string;
  mine: boolean;
  me: string;
  canApprove: boolean;
  busy: boolean;
  rejecting: boolean;
  onReject: () => void;
  onCancelReject: () => void;
  decide: (d: Decision) => void;
}) {
  // The reason's rule loads as an approver's buttons show, before "Reject…" is pressed.
  useEffect(() => {
    if (canApprove && !mine) void loadReasonRule();
  }, [canApprove, mine]);
  if (mine) {
    return (
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button variant="secondary" disabled={busy} onClick={() => decide({ verb: "withdraw" })}>
          Withdraw request
        </Button>
        <p className="text-sm text-ink-muted">You requested this, so another approver must decide it.</p>
      </div>
    );
  }
  if (!canApprove) return null;
  if (a.approvals.some((v) => v.by === me))
    return <p className="mt-3 text-sm text-ink-muted">You approved it; it waits for another approver.</p>;
  if (rejecting)
    return (
      <RejectForm busy={busy} onCancel={onCancelReject} onReject={(reason) => decide({ verb: "reject", reason })} />
    );
  return (
    <ApproveStep
      approval={a}
      nickname={nickname}
      busy={busy}
      onApprove={() => decide({ verb: "approve" })}
      onReject={onReject}
    />
  );
}

/**
 * Approving is deliberate and in place (issue 26). The line above the buttons says what approving
 * does, and Approve ignores activation for REVIEW_ARMING_MS after it appears, as the review's
 * Confirm does. At the rule's threshold or past it, the armed click first asks in the buttons'
 * place, no dialog over the other cards: the request restated, then Confirm (armed afresh, so a
 * double click on Approve cannot answer it) or Cancel (or Escape).
 */
function ApproveStep({
  approval: a,
  nickname,
  busy,
  onApprove,
  onReject,
}: {
  approval: Approval;
  nickname: (id: string) => string;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  const armed = useArmed();
  const [confirming, setConfirming] = useState(false);
  const effectId = useId();
  const approveButton = useRef<HTMLButtonElement>(null);
  // Back from the question, focus returns to the button that asked it.
  const returning = useRef(false);
  useEffect(() => {
    if (confirming || !returning.current) return;
    returning.current = false;
    approveButton.current?.focus();
  }, [confirming]);
  if (confirming)
    return (
      <ConfirmApproval
        question={approveQuestion(a, nickname)}
        busy={busy}
        onConfirm={onApprove}
        onCancel={() => {
          returning.current = true;
          setConfirming(false);
        }}
      />
    );
  const approve = () => {
    if (!armed || busy) return;
    if (needsConfirming(a)) setConfirming(true);
    else onApprove();
  };
  return (
    <div className="mt-3 space-y-2">
      <p id={effectId} className="text-sm" data-testid="decision-terms">
        {approveEffect(a, nickname)}
      </p>
      <div className="flex flex-wrap gap-3">
        <ArmedButton ref={approveButton} armed={armed} disabled={busy} onClick={approve} aria-describedby={effectId}>
          {approveVerb(a)}
        </ArmedButton>
        <Button variant="danger" disabled={busy} onClick={onReject}>
          Reject…
        </Button>
      </div>
    </div>
  );
}

/** The question in the buttons' place; focus on the question, read before the button that answers it. */
function ConfirmApproval({
  question,
  busy,
  onConfirm,
  onCancel,
}: {
  question: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const armed = useArmed();
  const questionId = useId();
  const questionRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => questionRef.current?.focus(), []);
  return (
    <div
      role="group"
      aria-labelledby={questionId}
      data-testid="approve-confirm"
      className="mt-3 space-y-2"
      onKeyDown={(e) => {
        if (e.key !== "Escape" || busy) return;
        e.preventDefault();
        onCancel();
      }}
    >
      <p
        id={questionId}
        ref={questionRef}
        tabIndex={-1}
        data-testid="approve-question"
        className="text-sm font-semibold focus:outline-2 focus:outline-brand"
      >
        {question}
      </p>
      <div className="flex flex-wrap gap-3">
        <ArmedButton armed={armed} disabled={busy} onClick={() => armed && !busy && onConfirm()}>
          Confirm
        </ArmedButton>
        <Button variant="ghost" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/** A button that says whether it acts yet (data-armed), as the review's Confirm does; its click checks. */
function ArmedButton({ armed, ...props }: ComponentProps<typeof Button> & { armed: boolean }) {
  return (
    <Button {...props} aria-disabled={!armed || undefined} data-armed={armed} className={armed ? "" : "opacity-60"} />
  );
}

/**
 * The reject route's own rule for a reason, loaded with `await import()` as pages load schemas;
 * once loaded it checks in the same event as the click, so the refusal shows at once.
 */
let reasonRule: typeof import("@/lib/shared/reject-reason").rejectReasonSchema | undefined;
const loadReasonRule = async () => (reasonRule ??= (await import("@/lib/shared/reject-reason")).rejectReasonSchema);

/** Rejecting needs a reason, kept and shown to the requester: refused here first by the route's own rule. */
function RejectForm({
  busy,
  onReject,
  onCancel,
}: {
  busy: boolean;
  onReject: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      aria-label="Reject request"
      className="mt-3 space-y-2"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const checked = (reasonRule ?? (await loadReasonRule())).safeParse(reason);
        if (checked.success) onReject(checked.data);
        else setError(checked.error.issues[0]?.message);
      }}
    >
      <Field label="Reason for rejecting" error={error}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            value={reason}
            rows={2}
            maxLength={REJECT_REASON_MAX_CHARS}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => {
              setReason(e.target.value);
              setError(undefined);
            }}
            className={inputClass(invalid)}
            autoFocus
          />
        )}
      </Field>
      <div className="flex gap-3">
        <Button type="submit" variant="danger" disabled={busy}>
          Reject request
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Keep it
        </Button>
      </div>
    </form>
  );
}

/** Requested, each approval, the decision (with the reason of a rejection), and what was sent. */
function History({ approval: a, nickname }: { approval: Approval; nickname: (id: string) => string }) {
  const failed = a.outcome !== null && a.outcome.status >= 300;
  return (
    <ol
      aria-label="Decision history"
      data-testid="approval-history"
      className="mt-3 space-y-1 border-l-2 border-slate-200 pl-3 text-sm"
    >
      <li>
        Requested by {a.requested_by} <Time iso={a.created_at} />
      </li>
      {a.approvals.map((v) => (
        <li key={v.by}>
          Approved by {v.by} ({v.role}) <Time iso={v.at} />
        </li>
      ))}
      {a.status === "REJECTED" && (
        <li>
          Rejected by {a.decided_by} <Time iso={a.decided_at ?? undefined} />: <q className="font-medium">{a.reason}</q>
        </li>
      )}
      {a.status === "WITHDRAWN" && (
        <li>
          Withdrawn by {a.decided_by} <Time iso={a.decided_at ?? undefined} />
        </li>
      )}
      {a.status === "EXPIRED" && (
        <li>
          Expired unapproved <Time iso={a.decided_at ?? a.expires_at} />; never sent
        </li>
      )}
      {a.status === "APPROVED" && (
        <li className={failed ? "text-sell" : ""} data-testid="approval-outcome">
          {decisionWords(a, nickname)}
        </li>
      )}
    </ol>
  );
}

const DECIDED_BORDER: Record<Approval["status"], string> = {
  PENDING: "border-slate-200",
  APPROVED: "border-buy/50",
  REJECTED: "border-sell/50",
  EXPIRED: "border-slate-300",
  WITHDRAWN: "border-slate-300",
};

const RESULT_TONES = {
  success: "bg-buy-soft text-buy",
  error: "bg-sell-soft text-sell",
  info: "bg-surface-sunken text-ink",
} as const;
