"use client";

import { useTickers } from "@/lib/client/desk-queries";
import { formatUsd } from "@/lib/shared/format";
import { approvalRuleFor, type FormControls } from "@/lib/shared/policy";
import { compareDecimal } from "@/lib/spec/decimal";
import type { Market } from "@/lib/spec/enums";
import {
  marketsToValue,
  marketsToValueOrder,
  midsOf,
  orderValueInUsd,
  valueInUsd,
  type OrderAmounts,
} from "@/lib/spec/valuation";

/** What the review values: an order's amounts, or a transfer's amount and asset. */
export type Valued = { kind: "order"; order: OrderAmounts } | { kind: "transfer"; amount: string; asset: string };

const usd = formatUsd;

/**
 * The desk's controls in the review, before anything is sent: what the request is worth in
 * USD by the server's own valuation rule (lib/spec/valuation), whether it will wait for an
 * approver, and an order past the user's limit. The server decides; this says what to expect.
 */
export function ControlsNote({ controls, valued }: { controls: FormControls; valued: Valued }) {
  const markets = marketsOf(valued);
  const tickers = useTickers(markets);
  if (tickers.pending) return null;
  const mids = midsOf(tickers.byMarket);
  const value =
    valued.kind === "order" ? orderValueInUsd(valued.order, mids) : valueInUsd(valued.amount, valued.asset, mids);
  if (value === undefined) return null;
  const rule = approvalRuleFor(controls.approvalRules, controls.kind, value);
  const overLimit = controls.maxOrderUsd !== undefined && compareDecimal(value, controls.maxOrderUsd) > 0;
  return (
    <div className="space-y-1 text-sm" data-testid="controls-note">
      <p>Worth about {usd(value)}.</p>
      {rule && (
        <p className="font-semibold text-warn" data-testid="needs-approval">
          Needs approval by {rule.approvals_needed === 1 ? "an approver" : "two approvers"} before it is sent (
          {controls.kind}s of {usd(rule.threshold_usd)} or more).
        </p>
      )}
      {overLimit && (
        <p className="font-semibold text-sell" role="alert">
          Above your limit of {usd(controls.maxOrderUsd!)} an order: the desk will refuse it.
        </p>
      )}
    </div>
  );
}

const marketsOf = (valued: Valued): Market[] =>
  valued.kind === "transfer" ? marketsToValue(valued.asset) : marketsToValueOrder(valued.order.market);
