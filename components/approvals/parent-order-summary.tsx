"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { useParentOrder } from "@/lib/client/parent-orders";
import type { Approval } from "@/lib/shared/approval";
import { parentOrderHref } from "@/lib/shared/parent-order-words";
import { parentProgressWords, parentRequestOf, scheduleWords } from "@/lib/shared/parent-approval-words";

/**
 * What a held TWAP parent order asks, for anyone who reads its card: its ref_id, its schedule,
 * where it stands, and a link to the parent's page, where its children and their fills are. Drawn
 * from the approval's own request (what was asked), but for its progress: once approved and
 * working, the parent as it stands now. The progress line is there from the start, so a decision
 * adds no line to the card.
 */
export function ParentOrderSummary({ approval: a }: { approval: Approval }) {
  const r = parentRequestOf(a);
  return (
    <div className="mt-3 space-y-2 text-sm" data-testid="parent-order-summary" data-parent-order-id={r.parent_order_id}>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-ink-muted">Parent order</dt>
        <dd className="break-all" data-testid="parent-order-ref">
          ref_id <span className="font-mono">{r.ref_id}</span>; its children the same, with -1 to -{r.slices}
        </dd>
        <dt className="font-medium text-ink-muted">Schedule</dt>
        <dd>
          {scheduleWords(r)}: each slice one limit order, immediate or cancel, at the touch and never past the cap; what
          a slice leaves unfilled goes with the next
        </dd>
        <dt className="font-medium text-ink-muted">Progress</dt>
        <dd data-testid="parent-order-progress">
          <ParentProgress approval={a} parentId={r.parent_order_id} />
        </dd>
      </dl>
      {r.parent_order_id && (
        <p>
          <IntentLink
            href={parentOrderHref(r.parent_order_id)}
            className="font-medium text-brand underline underline-offset-2"
            data-testid="parent-order-link"
          >
            Open parent order {r.ref_id} with its children and fills
          </IntentLink>
        </p>
      )}
    </div>
  );
}

/** The parent now, kept current as its page keeps it (one read once it has ended); none before it is approved and started. */
function ParentProgress({ approval: a, parentId }: { approval: Approval; parentId: string }) {
  const started = a.status === "APPROVED" && a.outcome !== null && a.outcome.status < 300 && Boolean(parentId);
  const parent = useParentOrder(parentId, undefined, started);
  return <>{parentProgressWords(a, parent.data) ?? (parent.isError ? "Not known now." : "Reading…")}</>;
}
