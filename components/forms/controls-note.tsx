"use client";

import { useTickers } from "@/lib/client/desk-queries";
import { formatUsd } from "@/lib/shared/format";
import { approvalRuleFor, type ApprovalRule, type FormControls } from "@/lib/shared/policy";
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

/** What the review weighs before anything is sent: the value in USD, the rule that would hold it, a breach of the user's limit. */
export interface ControlsReading {
  /** Undefined while the prices are read, or when no market prices the asset. */
  value?: string;
  rule?: ApprovalRule;
  overLimit: boolean;
  /** True when the server will hold it for approval whatever else was sent: its value reaches a rule, or nothing prices it. */
  willHold: boolean;
  pending: boolean;
}

/**
 * The desk's controls as the review can weigh them: the value by the server's own valuation
 * rule (lib/spec/valuation), the approval rule that value alone reaches, and an order past the
 * user's limit. The server decides (a rolling 24 h total the browser does not know may hold a
 * smaller one); this says what to expect.
 */
export function useControlsReading(controls: FormControls | undefined, valued: Valued | undefined): ControlsReading {
  const tickers = useTickers(valued ? marketsOf(valued) : []);
  if (!controls || !valued || tickers.pending) return { overLimit: false, willHold: false, pending: true };
  const mids = midsOf(tickers.byMarket);
  const value =
    valued.kind === "order" ? orderValueInUsd(valued.order, mids) : valueInUsd(valued.amount, valued.asset, mids);
  // An asset no market prices in USD always waits for approval ("no USD price").
  if (value === undefined) return { overLimit: false, willHold: marketsOf(valued).length === 0, pending: false };
  const rule = approvalRuleFor(controls.approvalRules, controls.kind, value);
  const overLimit = controls.maxOrderUsd !== undefined && compareDecimal(value, controls.maxOrderUsd) > 0;
  return { value, rule, overLimit, willHold: rule !== undefined, pending: false };
}

/**
 * The desk's controls in the review, before anything is sent: what the request is worth in
 * USD, whether it will wait for an approver, and an order past the user's limit.
 */
export function ControlsNote({ controls, reading }: { controls: FormControls; reading: ControlsReading }) {
  const { value, rule, overLimit } = reading;
  if (value === undefined) return null;
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
