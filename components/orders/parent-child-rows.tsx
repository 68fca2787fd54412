"use client";

import { SubRow } from "@/components/ui/data-table";
import { DetailItem, DetailList } from "@/components/ui/row-details";
import { isBadgeStatus, StatusBadge } from "@/components/ui/status-badge";
import { ShortId } from "@/components/ui/short-id";
import { Time } from "@/lib/client/time-zone";
import { formatAmount } from "@/lib/shared/format";
import { hasFill } from "@/lib/shared/order-rows";
import type { ChildLine, ParentRow } from "@/lib/shared/parent-order-rows";
import { marketAssets } from "@/lib/spec/markets";

/** The id of a child's row beneath its parent, or of the one row that says none has been sent yet. */
const childRowId = (parentId: string, n: number | "none") => `parent-child-${parentId}-${n}`;

/** The ids of the rows a parent's ▸ opens: its children sent, or the line that says none is yet. */
export const parentChildRowIds = (row: ParentRow): string[] =>
  row.children.length ? row.children.map((c) => childRowId(row.parent.id, c.n)) : [childRowId(row.parent.id, "none")];

/** A child's status as its badge shows it. */
export function ChildStatus({ status }: { status: string }) {
  return isBadgeStatus(status) ? (
    <StatusBadge status={status} />
  ) : (
    <span className="text-xs font-semibold">{status}</span>
  );
}

/**
 * The children a TWAP parent has sent, beneath its row in the orders table, indented, oldest
 * first: each slice's number, status, what it asked at what price, what it filled, when it went,
 * and its ref_id and order id. Before the first is sent, one line says when it is due.
 */
export function ParentChildRows({ row, hidden, width }: { row: ParentRow; hidden: boolean; width: number }) {
  const { parent, children } = row;
  const base = marketAssets(parent.market)?.base_asset ?? "";
  if (children.length === 0) {
    const first = parent.children[0]?.scheduled_at;
    return (
      <SubRow id={childRowId(parent.id, "none")} hidden={hidden} width={width}>
        <p className="pl-6 text-ink-muted">
          {parent.status === "AWAITING_APPROVAL" ? (
            "No slice is sent before the parent order is approved."
          ) : first && parent.status === "WORKING" ? (
            <>
              No slice sent yet; the first is due at <Time iso={first} />.
            </>
          ) : (
            "No slice was sent."
          )}
        </p>
      </SubRow>
    );
  }
  return (
    <>
      {children.map((c) => (
        <SubRow key={c.n} id={childRowId(parent.id, c.n)} hidden={hidden} width={width}>
          <div className="flex items-start gap-2 pl-4" data-testid="parent-child" data-ref={c.ref_id}>
            <span aria-hidden className="text-ink-muted">
              ↳
            </span>
            <ChildDetails child={c} slices={parent.slices} base={base} />
          </div>
        </SubRow>
      ))}
    </>
  );
}

function ChildDetails({ child: c, slices, base }: { child: ChildLine; slices: number; base: string }) {
  return (
    <DetailList>
      <DetailItem label="Slice">
        {c.n.toLocaleString("en-US")} of {slices.toLocaleString("en-US")}
      </DetailItem>
      <DetailItem label="Status">
        <ChildStatus status={c.status} />
      </DetailItem>
      <DetailItem label="Asked">
        {formatAmount(c.base_amount ?? undefined)} {base} at {formatAmount(c.price ?? undefined, { min: 2 })}
      </DetailItem>
      <DetailItem label="Filled">
        {formatAmount(c.amount_filled)} {base}
        {hasFill(c.amount_filled) && c.average_price && ` at avg ${formatAmount(c.average_price, { min: 2 })}`}
      </DetailItem>
      <DetailItem label="Sent">
        <Time iso={c.sent_at ?? undefined} />
      </DetailItem>
      <DetailItem label="Ref ID">
        <code className="font-mono">{c.ref_id}</code>
      </DetailItem>
      {c.order_id && (
        <DetailItem label="Order ID">
          <ShortId id={c.order_id} />
        </DetailItem>
      )}
    </DetailList>
  );
}
