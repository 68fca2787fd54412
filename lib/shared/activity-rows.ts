import type { CancelRequest, JournalEntry } from "@/lib/shared/journal-entry";
import { outcomeOf, recordStatusOf, RESULT_WORDS, resultOf, type ActivityEntry } from "./activity-outcome";
import { isMarket, marketLabel } from "@/lib/spec/markets";
import { formatAmount, formatMoney } from "./format";
import { orderAmount } from "./order-rows";

/**
 * A journal entry in an auditor's words: what was asked (an order's side, market, amount and
 * price; a transfer's asset, amount and profiles; which order a cancel was for), and what came
 * of it (activity-outcome.ts). Shared by the activity table and its CSV export.
 */

export const ACTION_WORDS: Record<JournalEntry["kind"], string> = {
  order: "Order",
  transfer: "Transfer",
  cancel: "Cancel",
};

/** The fields of what was asked; "" where a kind has none. Amounts exactly as sent. */
export interface Asked {
  order_id: string;
  side: string;
  market: string;
  type: string;
  amount: string;
  asset: string;
  price: string;
  stop_price: string;
  from_profile_id: string;
  to_profile_id: string;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

function orderAsked(request: Record<string, unknown>): Omit<Asked, "order_id" | "from_profile_id" | "to_profile_id"> {
  const market = text(request.market);
  const amount = isMarket(market)
    ? orderAmount({ market, base_amount: text(request.base_amount), quote_amount: text(request.quote_amount) })
    : { value: "", asset: "" };
  return {
    side: text(request.side),
    market,
    type: text(request.type),
    amount: amount.value,
    asset: amount.asset,
    price: text(request.price),
    stop_price: text(request.stop_price),
  };
}

const NOTHING: Asked = {
  order_id: "",
  side: "",
  market: "",
  type: "",
  amount: "",
  asset: "",
  price: "",
  stop_price: "",
  from_profile_id: "",
  to_profile_id: "",
};

export function askedOf(
  e: Pick<JournalEntry, "kind" | "request" | "profile_id" | "to_profile_id" | "result_id">,
): Asked {
  switch (e.kind) {
    case "order":
      return { ...NOTHING, ...orderAsked(e.request), order_id: e.result_id ?? "", from_profile_id: e.profile_id };
    case "transfer":
      return {
        ...NOTHING,
        amount: text(e.request.amount),
        asset: text(e.request.asset),
        from_profile_id: e.profile_id,
        to_profile_id: e.to_profile_id ?? "",
      };
    case "cancel": {
      const r = e.request as Partial<CancelRequest>;
      return {
        ...NOTHING,
        ...(r.order ? orderAsked(r.order) : {}),
        order_id: text(r.order_id),
        from_profile_id: e.profile_id,
      };
    }
  }
}

/**
 * What was asked in one line, its profiles aside (the table shows them in their own column):
 * "BUY 0.01 ETH at 100.00 · ETH/USD", "250 USD".
 */
export function describeAsked(a: Asked): string {
  if (a.to_profile_id) return formatMoney(a.amount, a.asset);
  if (!a.market) return "";
  const price = a.price ? ` at ${formatAmount(a.price, { min: 2 })}` : a.type === "MARKET" ? " at market" : "";
  const stop = a.stop_price ? ` stop ${formatAmount(a.stop_price, { min: 2 })}` : "";
  const where = isMarket(a.market) ? marketLabel(a.market) : a.market;
  return `${a.side} ${formatMoney(a.amount, a.asset)}${price}${stop} · ${where}`;
}

export const ACTIVITY_CSV_HEADER = [
  "id",
  "created_at",
  "completed_at",
  "action",
  "user_email",
  "user_role",
  "profile_id",
  "profile",
  "to_profile_id",
  "to_profile",
  "order_id",
  "side",
  "market",
  "type",
  "amount",
  "asset",
  "price",
  "stop_price",
  "status",
  "result",
  "outcome",
  "problem_detail",
  "http_status",
  "latency_ms",
  "ref_id",
  "result_id",
  "record_status",
  "record_status_now",
];

/**
 * One entry as a CSV row; amounts exactly as they were sent, times as the journal wrote them (ISO
 * UTC). `status` is the journal's code, as the API has it; `result` the page's badge.
 */
export function activityCsvRow(e: ActivityEntry, nickname: (profileId: string) => string): string[] {
  const a = askedOf(e);
  return [
    e.id,
    e.created_at,
    e.completed_at ?? "",
    e.kind,
    e.user_email,
    e.user_role,
    e.profile_id,
    nickname(e.profile_id),
    e.to_profile_id ?? "",
    e.to_profile_id ? nickname(e.to_profile_id) : "",
    a.order_id,
    a.side,
    a.market,
    a.type,
    a.amount,
    a.asset,
    a.price,
    a.stop_price,
    e.status,
    RESULT_WORDS[resultOf(e)],
    outcomeOf(e),
    e.problem?.detail ?? "",
    e.http_status === null ? "" : String(e.http_status),
    e.latency_ms === null ? "" : String(e.latency_ms),
    e.ref_id,
    e.result_id ?? "",
    recordStatusOf(e),
    e.record_status_now ?? "",
  ];
}
