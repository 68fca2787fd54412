import { internalTransfers, sendersWords } from "@/lib/shared/batch-approval-words";
import { totalsInWords } from "@/lib/shared/describe-batch";
import { formatMarket, formatMoney, formatPrice, formatUsd } from "@/lib/shared/format";
import { nameProfiles } from "@/lib/shared/named-profiles";
import { withDefaults, type ApprovalRule, type Policy } from "@/lib/shared/policy";
import { describeParentOrder, durationWords } from "@/lib/shared/parent-order-words";
import { policyChanges } from "@/lib/shared/policy-changes";
import { marketAssets } from "@/lib/spec/markets";

/**
 * An audit entry's detail in an auditor's words: profiles by name, amounts formatted, a
 * policy change as only what changed (before → after). The exact record stays beside it
 * (the page shows the JSON on demand; the CSV export keeps it whole).
 */

type Detail = Record<string, unknown>;
type Nickname = (profileId: string) => string;

const isObject = (v: unknown): v is Detail => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const isPolicy = (v: unknown): v is Policy => isObject(v) && Array.isArray(v.approval_rules) && isObject(v.limits);

/** Keys of a parent order's events whose own name says too little. */
const PARENT_KEY_WORDS: Record<string, string> = {
  paused_ms: "Paused for",
  skipped: "Slices not sent",
  was: "Status before",
  filled_base: "Filled",
};

/** A key in words: "hold_reason" -> "Hold reason". */
const keyWords = (key: string): string => {
  const words = key.replaceAll(/[_.-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A TWAP parent order's request (`parent_order.requested`, and its approval's): "TWAP: Buy 0.2 BTC
 * over 1 minute in 6 slices, never above 61,000.00 USD, from Trading".
 */
function parentRequestWords(r: Detail, nickname: Nickname): string | undefined {
  const [market, side, base, cap] = [text(r.market), text(r.side), text(r.base_amount), text(r.limit_price)];
  const { duration_seconds: duration, slices } = r;
  if (r.strategy !== "TWAP" || !market || !side || !base || !cap) return undefined;
  if (typeof duration !== "number" || typeof slices !== "number") return undefined;
  const request = { profile_id: text(r.profile_id), market, side, base_amount: base, limit_price: cap };
  return `TWAP: ${describeParentOrder({ ...request, duration_seconds: duration, slices }, nickname)}`;
}

/** What a create asked for, in a sentence: "Move 20,000.00 USD from Treasury to Settlement". */
function requestWords(r: Detail, nickname: Nickname): string | undefined {
  const parent = parentRequestWords(r, nickname);
  if (parent) return parent;
  const asset = text(r.asset);
  const amount = text(r.amount);
  if (amount && asset && (r.from_profile_id || r.to_profile_id)) {
    const from = text(r.from_profile_id);
    const to = text(r.to_profile_id);
    return `Move ${formatMoney(amount, asset)}${from ? ` from ${nickname(from)}` : ""}${to ? ` to ${nickname(to)}` : ""}`;
  }
  const market = text(r.market);
  if (!market) return undefined;
  const assets = marketAssets(market);
  const side = r.side === "SELL" ? "Sell" : r.side === "BUY" ? "Buy" : text(r.side);
  const base = text(r.base_amount);
  const quote = text(r.quote_amount);
  const what = base
    ? formatMoney(base, assets?.base_asset ?? "")
    : quote
      ? `${assets?.base_asset ?? ""} for ${formatMoney(quote, assets?.quote_asset ?? "")}`
      : "";
  const price = text(r.price) ? ` at ${formatPrice(text(r.price))}` : r.type === "MARKET" ? " at the market" : "";
  const type = text(r.type) ? ` (${text(r.type)!.toLowerCase().replaceAll("_", " ")})` : "";
  const profile = text(r.profile_id);
  return `${side ?? "Order"} ${what}${price} on ${formatMarket(market)}${type}${profile ? ` from ${nickname(profile)}` : ""}`;
}

/** A batch's totals as its detail keeps them, each well formed: `[{asset, amount, value_usd}]`. */
const totalsOf = (v: unknown): { asset: string; amount: string; value_usd?: string }[] | undefined => {
  if (!Array.isArray(v)) return undefined;
  const totals = v.filter(isObject).flatMap((t) => {
    const asset = text(t.asset);
    const amount = text(t.amount);
    return asset && amount ? [{ asset, amount, value_usd: text(t.value_usd) }] : [];
  });
  return totals.length === v.length ? totals : undefined;
};

/** "18,000.00 USD and 0.5 BTC (about 32,500.00 USD)": each asset's sum, and its worth when not in USD. */
const totalsLine = (totals: { asset: string; amount: string; value_usd?: string }[]): string =>
  totals
    .map(
      (t) =>
        `${formatMoney(t.amount, t.asset)}${t.asset !== "USD" && t.value_usd ? ` (about ${formatUsd(t.value_usd)})` : ""}`,
    )
    .join(", ");

/** A held batch's request (an approval of kind "batch"): "Batch of 3 internal transfers: 18,000.00 USD from Treasury". */
function batchRequestWords(r: Detail, nickname: Nickname): string | undefined {
  const totals = totalsOf(r.totals);
  if (typeof r.rows !== "number" || !totals) return undefined;
  const outgoing = Array.isArray(r.outgoing)
    ? r.outgoing.filter(isObject).flatMap((o) => (text(o.profile_id) ? [{ profile_id: text(o.profile_id)! }] : []))
    : [];
  const from = outgoing.length > 0 ? ` from ${sendersWords(outgoing, nickname)}` : "";
  return `Batch of ${internalTransfers(r.rows)}: ${totalsInWords(totals)}${from}`;
}

/** A problem as a person reads it: "Insufficient Funds: insufficient USD funds in Treasury …". */
function problemWords(p: Detail, nickname: Nickname): string | undefined {
  const title = text(p.title);
  const detail = text(p.detail);
  if (!title && !detail) return undefined;
  return nameProfiles([title, detail].filter(Boolean).join(": "), nickname);
}

const ruleWords = (rule: Partial<ApprovalRule>): string =>
  `${rule.kind === "order" ? "orders" : rule.kind === "transfer" ? "transfers" : "requests"} from ${formatUsd(rule.threshold_usd)}, ${rule.approvals_needed ?? 1} approval${rule.approvals_needed === 2 ? "s" : ""}`;

/** What a request's kind is called: "TWAP parent order" for `parent_order`. */
const KIND_WORDS: Record<string, string> = {
  order: "order",
  transfer: "transfer",
  batch: "batch",
  parent_order: "TWAP parent order",
  policy: "policy change",
};

/** A value of any other key, in words. */
function valueWords(key: string, value: unknown, nickname: Nickname): string {
  if (key === "paused_ms" && typeof value === "number") return durationWords(Math.round(value / 1000));
  if (typeof value === "string") {
    if (key === "kind" && value in KIND_WORDS) return KIND_WORDS[value]!;
    if (key.endsWith("profile_id")) return nickname(value);
    if (key.endsWith("_usd") || key === "limit" || key === "used" || key === "requested") return formatUsd(value);
    if (key === "market") return formatMarket(value);
    return nickname(value);
  }
  if (value === null) return "none";
  if (Array.isArray(value)) return value.map((v) => valueWords(key, v, nickname)).join(", ") || "none";
  if (isObject(value))
    return Object.entries(value)
      .map(([k, v]) => `${keyWords(k).toLowerCase()} ${valueWords(k, v, nickname)}`)
      .join(", ");
  return String(value);
}

/** The detail's lines, most telling first. */
export function auditDetailWords(detail: Detail, nickname: Nickname = (id) => id): string[] {
  const lines: string[] = [];
  const shown = new Set<string>();
  const parentEvent = typeof detail.parent_order_id === "string";
  if (isPolicy(detail.before) && isPolicy(detail.after)) {
    const changes = policyChanges(withDefaults(detail.before), withDefaults(detail.after), formatUsd);
    lines.push(...(changes.length ? changes.map((c) => `${c.label}: ${c.before} → ${c.after}`) : ["No change"]));
    shown.add("before").add("after").add("loosens").add("kind");
  }
  if (isObject(detail.request)) {
    const words = requestWords(detail.request, nickname) ?? batchRequestWords(detail.request, nickname);
    if (words) {
      lines.push(words);
      shown.add("request").add("kind");
    }
  }
  if (isObject(detail.weighed_as_transfer)) {
    const into = text(detail.weighed_as_transfer.recipient_profile_id);
    lines.push(`Weighed as a transfer too: it settles into ${into ? nickname(into) : "another profile"}`);
    shown.add("weighed_as_transfer");
  }
  if (text(detail.value_usd)) {
    lines.push(`Worth about ${formatUsd(text(detail.value_usd))}`);
    shown.add("value_usd");
  }
  const totals = totalsOf(detail.totals);
  if (totals) {
    lines.push(`Totals: ${totalsLine(totals)}`);
    shown.add("totals");
  }
  if (isObject(detail.problem)) {
    const words = problemWords(detail.problem, nickname);
    if (words) {
      lines.push(`Problem: ${words}`);
      shown.add("problem");
    }
  }
  if (isObject(detail.rule) && "threshold_usd" in detail.rule) {
    lines.push(`Rule: ${ruleWords(detail.rule as Partial<ApprovalRule>)}`);
    shown.add("rule");
  }
  for (const [key, value] of Object.entries(detail)) {
    if (shown.has(key) || value === undefined) continue;
    const label = (parentEvent && PARENT_KEY_WORDS[key]) || keyWords(key);
    lines.push(`${label}: ${valueWords(key, value, nickname)}`);
  }
  return lines;
}
