"use client";

import { Fragment, useState, type ReactNode } from "react";
import { timeLeft, type Approval } from "@/lib/client/approval-feed";
import { useProfileNames } from "@/lib/client/profile-names";
import { formatUsd } from "@/lib/shared/format";
import { approvalAnchor } from "@/lib/shared/held-requests";
import { Button } from "../ui/button";
import { describeApproval } from "@/lib/shared/describe-approval";

/**
 * Requests one line each, for a desk with many waiting: what is asked, its worth, who asked and
 * how long it has left. Deciding needs the request's whole context: **Open** unfolds its card
 * (the same card as the card view, with its context and buttons) under its line, in place.
 */
export function ApprovalRows({
  items,
  card,
  now,
}: {
  items: readonly Approval[];
  card: (a: Approval) => ReactNode;
  now: number;
}) {
  const { nickname } = useProfileNames();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <table className="w-full text-sm" data-testid="approval-rows">
      <caption className="sr-only">Requests, one line each</caption>
      <thead className="text-left text-xs text-ink-muted">
        <tr>
          <th scope="col" className="py-1 pr-2 font-medium">
            Request
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">
            Worth
          </th>
          <th scope="col" className="py-1 pr-2 font-medium max-md:hidden">
            Requested by
          </th>
          <th scope="col" className="py-1 pr-2 font-medium max-sm:hidden">
            Expires in
          </th>
          <th scope="col" className="py-1 font-medium">
            <span className="sr-only">Open</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((a) => (
          <Fragment key={a.id}>
            <tr className="border-t border-slate-200" data-approval-id={a.id} id={approvalAnchor(a.id)}>
              <td className="py-2 pr-2">{describeApproval(a, nickname)}</td>
              <td className="py-2 pr-2 text-right tabular-nums whitespace-nowrap">
                {a.value_usd === null ? "—" : formatUsd(a.value_usd)}
              </td>
              <td className="py-2 pr-2 break-all max-md:hidden">{a.requested_by}</td>
              <td className="py-2 pr-2 whitespace-nowrap tabular-nums max-sm:hidden">
                {a.status === "PENDING" ? timeLeft(Date.parse(a.expires_at) - now) : "—"}
              </td>
              <td className="py-2 text-right">
                <Button
                  variant="secondary"
                  size="sm"
                  aria-expanded={open.has(a.id)}
                  aria-label={`${open.has(a.id) ? "Close" : "Open"} the request: ${describeApproval(a, nickname)}`}
                  onClick={() => toggle(a.id)}
                >
                  {open.has(a.id) ? "Close" : "Open"}
                </Button>
              </td>
            </tr>
            {open.has(a.id) && (
              <tr>
                <td colSpan={5} className="pb-3">
                  {card(a)}
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
