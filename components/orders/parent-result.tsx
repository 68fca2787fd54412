"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { useParentOrder } from "@/lib/client/parent-orders";
import { parentOrderHref } from "@/lib/shared/parent-order-words";
import type { ParentOrder } from "@/lib/shared/parent-order";
import { StatusBadge } from "../ui/status-badge";
import { describeParentOrder } from "@/lib/shared/parent-order-words";
import { parentProgressWords } from "./describe-parent-order";

/**
 * The ticket's card for a TWAP parent order it placed (or an approver let start): what was
 * asked, how far it has filled, kept current by the stream, and the way to its page.
 */
export function ParentResult({ parent: created }: { parent: ParentOrder }) {
  const { data: parent = created } = useParentOrder(created.id, created);
  return (
    <div
      role="status"
      className="space-y-2 rounded-md border border-buy/30 bg-buy-soft/40 p-3 text-sm"
      data-testid="parent-result"
      data-status={parent.status}
    >
      <div className="flex items-center justify-between gap-2">
        <span className="font-semibold">Parent order placed</span>
        <StatusBadge status={parent.status} />
      </div>
      <p className="font-medium">{describeParentOrder(parent)}</p>
      <p data-testid="parent-progress">{parentProgressWords(parent)}</p>
      <IntentLink
        href={parentOrderHref(parent.id)}
        className="inline-block font-semibold text-brand underline underline-offset-2"
        data-testid="parent-link"
      >
        Open parent order <code className="font-mono">{parent.id.slice(0, 8)}</code>
      </IntentLink>
    </div>
  );
}
