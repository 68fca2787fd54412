"use client";

import { IntentLink } from "@/components/ui/intent-link";
import type { ReactNode } from "react";
import { useParentOrder } from "@/lib/client/parent-orders";
import { useProfileNames } from "@/lib/client/profile-names";
import { Time } from "@/lib/client/time-zone";
import { formatAmount } from "@/lib/shared/format";
import { approvalHref } from "@/lib/shared/held-requests";
import { filledPercent, slicesSentWords } from "@/lib/shared/parent-order-rows";
import type { ParentOrder } from "@/lib/shared/parent-order";
import { compareDecimal } from "@/lib/spec/decimal";
import { describeParentOrder, durationWords } from "@/lib/shared/parent-order-words";
import { assetsOf, tickPrice } from "../orders/describe-parent-order";
import { Card } from "../ui/card";
import { Bar } from "../ui/loading-shape";
import { StatusBadge } from "../ui/status-badge";
import { ParentActions } from "./parent-actions";
import { ParentChart } from "./parent-chart";
import { ParentChildrenTable } from "./parent-children-table";

/**
 * A TWAP parent order's page (issue 29): what was asked and how far it has come, its execution
 * quality, pause, resume and cancel for the trader who asked or an admin, the market's price over
 * its life with each child's fill and the cap, and its slices. Kept current by the stream's
 * `parent_order` events (lib/client/live-events.ts).
 */
export function ParentOrderView({ initial, canAct }: { initial: ParentOrder; canAct: boolean }) {
  const { data: parent = initial } = useParentOrder(initial.id, initial);
  return (
    <div className="flex min-w-0 flex-col gap-6" data-testid="parent-order" data-status={parent.status}>
      <div className="grid min-w-0 items-start gap-6 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card
            title={
              <>
                TWAP parent order <code className="font-mono text-sm font-normal">{parent.id.slice(0, 8)}</code>
              </>
            }
            actions={<StatusBadge status={parent.status} />}
          >
            <p className="text-sm font-medium" data-testid="parent-sentence">
              {describeParentOrder(parent)}.
            </p>
            <Figures parent={parent} />
            {canAct && (
              <div className="mt-4">
                <ParentActions parent={parent} />
              </div>
            )}
          </Card>
          <Card title="Execution quality">
            <Quality parent={parent} />
          </Card>
        </div>
        <Card title="Price over its life" className="min-w-0">
          <ParentChart parent={parent} />
        </Card>
      </div>
      <Card title="Slices">
        <ParentChildrenTable parent={parent} />
      </Card>
    </div>
  );
}

function Figure({
  label,
  children,
  testId,
  wide = false,
  full = false,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  /** A time: across both columns on a phone, where half the width cannot hold it on one line. */
  wide?: boolean;
  /** Across both columns at every width. */
  full?: boolean;
}) {
  return (
    <div className={`min-w-0 ${full ? "col-span-full" : wide ? "max-sm:col-span-full" : ""}`}>
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd className="font-medium break-words tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Figures({ parent: p }: { parent: ParentOrder }) {
  const { base_asset: base, quote_asset: quote } = assetsOf(p.market);
  const percent = filledPercent(p);
  return (
    <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
      <Figure label="Filled" testId="parent-filled">
        {formatAmount(p.filled_base)} of {formatAmount(p.base_amount)} {base}
        <span
          role="progressbar"
          aria-label="Filled"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="mt-1 block h-1.5 w-full overflow-hidden rounded-full bg-surface-sunken"
        >
          <span className="block h-full bg-buy" style={{ width: `${percent}%` }} />
        </span>
      </Figure>
      <Figure label="Average price" testId="parent-average">
        {p.average_price ? `${tickPrice(p.average_price, p.market)} ${quote}` : "—"}
      </Figure>
      <Figure label={p.side === "BUY" ? "Cap (never above)" : "Cap (never below)"} testId="parent-cap">
        {formatAmount(p.limit_price, { min: 2 })} {quote}
      </Figure>
      <Figure label="Slices" testId="parent-slices">
        {slicesSentWords(p)}
      </Figure>
      <Figure label="Started" wide>
        {p.started_at ? <Time iso={p.started_at} /> : "Not yet"}
      </Figure>
      <Figure label="Ends" wide>
        {p.ends_at ? <Time iso={p.ends_at} /> : "—"}
      </Figure>
      <Figure label="Duration">{durationWords(p.duration_seconds)}</Figure>
      <Figure label="Profile" testId="parent-profile">
        <ProfileName id={p.profile_id} />
      </Figure>
      <Figure label="Requested by" full>
        <span className="break-all">{p.requested_by}</span>
      </Figure>
      <Figure label="Ref ID" full>
        <code className="font-mono text-xs break-all">{p.ref_id}</code>
      </Figure>
      {p.approval_id && (
        <Figure label="Approval" full>
          <IntentLink href={approvalHref(p.approval_id)} className="text-brand underline underline-offset-2">
            Its approval <code className="font-mono">{p.approval_id.slice(0, 8)}</code>
          </IntentLink>
        </Figure>
      )}
    </dl>
  );
}

/**
 * The profile's nickname on one line: a bar while the names load, then the name, cut short with
 * the whole in a tooltip. Not in the sentence above, where a name arriving after the first paint
 * re-wrapped the lines and moved the page on a phone.
 */
function ProfileName({ id }: { id: string }) {
  const { nickname, loading } = useProfileNames();
  if (loading) return <Bar className="h-5 w-24" />;
  const name = nickname(id);
  return (
    <span className="block truncate" title={name}>
      {name}
    </span>
  );
}

/** Slippage in words: a cost when positive, a saving when negative. */
function slippageWords(bps: string | null): string {
  if (bps === null) return "—";
  const negative = bps.startsWith("-");
  const size = formatAmount(negative ? bps.slice(1) : bps, { min: 2, max: 2 });
  if (compareDecimal(negative ? bps.slice(1) : bps, "0") === 0) return "0.00 bps";
  return negative ? `−${size} bps (a saving)` : `${size} bps (a cost)`;
}

/** Its execution quality over all its children: the arrival mid, its fills' VWAP, the slippage, the market's VWAP. */
function Quality({ parent: p }: { parent: ParentOrder }) {
  const q = p.quality;
  const { quote_asset: quote } = assetsOf(p.market);
  const price = (v: string | null) => (v === null ? "—" : `${tickPrice(v, p.market)} ${quote}`);
  return (
    <>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        <Figure label="Arrival mid" testId="quality-arrival-mid">
          {price(q.arrival_mid)}
        </Figure>
        <Figure label="Fill VWAP" testId="quality-fill-vwap">
          {price(q.fill_vwap)}
        </Figure>
        <Figure label="Slippage" testId="quality-slippage">
          {slippageWords(q.slippage_bps)}
        </Figure>
        <Figure label="Market VWAP" testId="quality-market-vwap">
          {price(q.market_vwap)}
        </Figure>
      </dl>
      <p className="mt-3 text-xs text-ink-muted">
        The market over <Time iso={q.window_start} /> to <Time iso={q.window_end} />; slippage against the mid when it
        started, positive when it cost the desk.
      </p>
    </>
  );
}
