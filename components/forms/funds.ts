import { formatMoney, formatPrice } from "@/lib/shared/format";
import type { Balance } from "@/lib/client/queries";
import { compareDecimal, multiplyDecimal } from "@/lib/spec/decimal";
import { MARKET_DETAILS } from "@/lib/spec/markets";
import type { CreateOrderRequest } from "@/lib/spec/order";
import type { CreateInternalTransferRequest } from "@/lib/spec/transfer";

/**
 * Enough funds, checked in the browser before the review with the balances on screen: a
 * shortfall is stopped on its field with the figures. The service's 403 stays the final word
 * (balances move), and nothing is stopped while the balances are not known.
 */

/** What a form hands its resolver as `context`: a profile's balances as the page has them, and its name. */
export interface FundsContext {
  balancesOf: (profileId: string) => Balance[] | undefined;
  nickname: (profileId: string) => string;
}

const fundsOf = (context: unknown, profileId: string) => {
  const c = context as Partial<FundsContext> | undefined;
  const balances = typeof c?.balancesOf === "function" ? c.balancesOf(profileId) : undefined;
  return c?.nickname && balances ? { balances, profileName: c.nickname(profileId) } : undefined;
};

const availableOf = (balances: Balance[], asset: string) => balances.find((b) => b.asset === asset)?.available ?? "0";
// Written as the fields above write them: "4,719,920.00 USD available", never "4,719,919.99825".
const money = formatMoney;

/** The order's field that asks for more than the profile has, and why, or undefined. */
export function orderShortfall(
  r: CreateOrderRequest,
  profileId: string,
  context: unknown,
): { field: "base_amount" | "quote_amount"; message: string } | undefined {
  const funds = fundsOf(context, profileId);
  if (!funds) return undefined;
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[r.market];
  // What the service holds when it accepts the order: the base sold, or the quote a buy may spend.
  const asset = r.side === "BUY" ? quote : base;
  const needed =
    r.side === "SELL" ? r.base_amount : (r.quote_amount ?? (r.price && multiplyDecimal(r.price, r.base_amount!)));
  if (!needed) return undefined;
  const available = availableOf(funds.balances, asset);
  if (compareDecimal(needed, available) <= 0) return undefined;
  const has = `${funds.profileName} has ${money(available, asset)} available`;
  if (r.side === "SELL") return { field: "base_amount", message: `Sell ${money(r.base_amount!, base)}: ${has}` };
  if (r.quote_amount)
    return { field: "quote_amount", message: `Buy ${base} for ${money(r.quote_amount, quote)}: ${has}` };
  const what = `Buy ${money(r.base_amount!, base)} at ${formatPrice(r.price)} ${quote}`;
  return { field: "base_amount", message: `${what} needs ${money(needed, quote)}: ${has}` };
}

/** Why the transfer's amount is more than the sending profile has, or undefined. */
export function transferShortfall(r: CreateInternalTransferRequest, context: unknown): string | undefined {
  const funds = fundsOf(context, r.from_profile_id);
  if (!funds) return undefined;
  const available = availableOf(funds.balances, r.asset);
  if (compareDecimal(r.amount, available) <= 0) return undefined;
  return `Move ${money(r.amount, r.asset)}: ${funds.profileName} has ${money(available, r.asset)} available`;
}
