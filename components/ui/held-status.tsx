import { IntentLink } from "./intent-link";
import type { ReactNode } from "react";
import { Time } from "@/lib/client/time-zone";
import { approvalHref, type HeldRequest } from "@/lib/shared/held-requests";
import { ShortId } from "./short-id";

/**
 * A held request's cells in a blotter (the orders and transfers tables): it is not sent, so the
 * service has no record of it, no details row and no action.
 */

/**
 * The status cell: "Awaiting approval", who asked, when its approval expires, and a link to the
 * approval. Its outline is dashed, so it is told from the service's statuses by more than its
 * word and colour; its lines wrap, so it never widens the table past its others.
 */
export function HeldStatus({ held }: { held: HeldRequest<unknown> }) {
  return (
    <span className="inline-flex flex-col items-start gap-0.5 whitespace-normal" data-held={held.approval_id}>
      <span className="inline-flex rounded-full border border-dashed border-warn bg-warn-soft px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-warn">
        Awaiting approval
      </span>
      <span className="text-xs text-ink-muted">by {held.requested_by}</span>
      <span className="text-xs text-ink-muted">
        expires <Time iso={held.expires_at} />
      </span>
      <IntentLink
        href={approvalHref(held.approval_id)}
        className="text-xs font-medium text-brand underline underline-offset-2"
      >
        Approval <ShortId id={held.approval_id} />
      </IntentLink>
    </span>
  );
}

/**
 * The identity cell: when it was asked and what (`children`), lined up with the rows whose
 * details open (components/ui/row-details.tsx, RowIdentity): a blank where their ▸ is.
 */
export function HeldIdentity({ held, children }: { held: HeldRequest<unknown>; children: ReactNode }) {
  return (
    <div className="flex items-start gap-1.5">
      <span aria-hidden className="invisible px-1">
        ▸
      </span>
      <div className="leading-tight">
        <Time iso={held.requested_at} />
        <div className="text-xs">{children}</div>
      </div>
    </div>
  );
}
