import {
  addDecimal,
  compareDecimal,
  divideDecimalHalfUp,
  multiplyDecimal,
  subtractDecimal,
  trimZeros,
} from "@/lib/spec/decimal";
import { formatAmount } from "./format";

/**
 * Execution quality (issue 29): what an order cost against the market when the desk asked for it.
 * GET /api/orders/{order_id}/quality answers it for any order; a parent order carries it over all
 * its children. Exact decimals throughout; "" never stands for a figure: null means "not known".
 */
export interface OrderQuality {
  order_id: string;
  /** The market's mid when the dashboard received the create (its journal keeps it); null for orders it did not send. */
  arrival_mid: string | null;
  arrival_at: string | null;
  /** What the order filled, in base. */
  filled: string;
  /** Its own fills' volume-weighted average price; null before any fill. */
  fill_vwap: string | null;
  /**
   * The cost against the arrival mid, in basis points (2 decimals): positive when the desk paid
   * more on a buy, or received less on a sell. Null without an arrival mid or a fill.
   */
  slippage_bps: string | null;
  /** The market's trades' volume-weighted average price over the order's life; null when none is known in it. */
  market_vwap: string | null;
  window_start: string;
  window_end: string;
}

/** A fill, or a market trade: an amount at a price. */
export interface Fill {
  amount: string;
  price: string;
}

/** Digits kept for an average price: finer than any market's tick. */
export const VWAP_SCALE = 8;

/** The volume-weighted average price of `fills` (their notional over their amount); null without volume. */
export function vwapOf(fills: readonly Fill[]): string | null {
  let volume = "0";
  let notional = "0";
  for (const f of fills) {
    volume = addDecimal(volume, f.amount);
    notional = addDecimal(notional, multiplyDecimal(f.amount, f.price));
  }
  return compareDecimal(volume, "0") > 0 ? trimZeros(divideDecimalHalfUp(notional, volume, VWAP_SCALE)) : null;
}

/**
 * The cost of filling at `fillVwap` against `arrivalMid`, in basis points to 2 decimals: a buy
 * above the mid, or a sell below it, is a positive cost; the other way round, a saving (negative).
 */
export function slippageBps(side: "BUY" | "SELL", arrivalMid: string | null, fillVwap: string | null): string | null {
  if (!arrivalMid || !fillVwap || compareDecimal(arrivalMid, "0") <= 0) return null;
  const paid = side === "BUY" ? subtractDecimal(fillVwap, arrivalMid) : subtractDecimal(arrivalMid, fillVwap);
  const negative = paid.startsWith("-");
  const size = divideDecimalHalfUp(multiplyDecimal(negative ? paid.slice(1) : paid, "10000"), arrivalMid, 2);
  return negative && compareDecimal(size, "0") > 0 ? `-${size}` : size;
}

/**
 * Slippage in words a person reads without a sign or a colour: "cost 3.20 bps", "saved 1.10 bps",
 * "none (0.00 bps)"; "—" when it is not known.
 */
export function slippageWords(bps: string | null): string {
  if (!bps) return "—";
  const negative = bps.startsWith("-");
  const size = formatAmount(negative ? bps.slice(1) : bps, { min: 2, max: 2 });
  if (compareDecimal(negative ? bps.slice(1) : bps, "0") === 0) return `none (${size} bps)`;
  return negative ? `saved ${size} bps` : `cost ${size} bps`;
}

/** A market's trade as the service's recent executions list it. */
export interface MarketTrade extends Fill {
  executed_at: string;
}

/** The market's VWAP over [start, end] (both inclusive) from its trades; null when none fell in it. */
export function marketVwapOf(trades: readonly MarketTrade[], start: string, end: string): string | null {
  const from = Date.parse(start);
  const to = Date.parse(end);
  return vwapOf(
    trades.filter((t) => {
      const at = Date.parse(t.executed_at);
      return at >= from && at <= to;
    }),
  );
}
