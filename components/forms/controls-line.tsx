import { formatUsd } from "@/lib/shared/format";
import type { FormControls } from "@/lib/shared/policy";

const usd = formatUsd;

/**
 * The desk's limits and approval rules, stated in the form before review, so nobody meets
 * them first as a refusal: "Your limits: 1,000,000 USD an order, 10,000,000 USD a day. Orders
 * of 100,000 USD or more need approval by an approver, counting what you sent without approval
 * in the last 24 h."
 */
export function ControlsLine({ controls }: { controls: FormControls }) {
  const limits = [
    controls.maxOrderUsd && `${usd(controls.maxOrderUsd)} an order`,
    controls.dailyUsd && `${usd(controls.dailyUsd)} a day`,
  ].filter(Boolean);
  const lowest = [...controls.approvalRules].sort((a, b) => Number(a.approvals_needed) - Number(b.approvals_needed))[0];
  return (
    <p className="text-xs text-ink-muted" data-testid="controls-line">
      {limits.length > 0 && `Your limits: ${limits.join(", ")}. `}
      {lowest &&
        `${controls.kind === "order" ? "Orders" : "Transfers"} of ${usd(lowest.threshold_usd)} or more need approval by an approver, counting what you sent without approval in the last 24 h.`}
    </p>
  );
}
