import "server-only";
import type { ApprovalSpend } from "@/lib/shared/approval-context";
import type { Policy } from "@/lib/shared/policy";
import type { Role } from "@/lib/shared/roles";
import {
  amountIfSet,
  compareDecimal,
  MARKET_DETAILS,
  multiplyDecimal,
  problem,
  ProblemError,
  type Market,
  type Problem,
} from "@/lib/spec";
import {
  marketsToValue,
  marketsToValueOrder,
  midsOf,
  orderValueInUsd,
  referencePriceOf,
  valueInUsd,
  type TickerPrices,
} from "@/lib/spec/valuation";
import { latestRole } from "../../auth/sessions";
import { currentPolicy } from "../../db/policy";
import type { Runtime } from "../../runtime";
import { recipientElsewhereOf, toProfileOf, type Create } from "../create";
import { guardNeedsBook, type Book, type Quote } from "./price-guard";

/**
 * What the controls weigh, read before the verdict and outside the person's lock (the service
 * is never called while it is held): the policy in force, the create's value in USD at the
 * service's prices now, an order's market (best prices, mid, and the book when the price guard
 * needs it), and, when asked for, the funds the create would spend. Reading writes nothing.
 * A price the controls need and cannot read is a 503 ("Price Unavailable"): they fail closed.
 */
export interface Facts {
  policy: Policy;
  /** The value in USD; null when no market of the service prices the asset in USD. */
  valueUsd: string | null;
  /** An order's market now, for the price guard. */
  quote?: Quote;
  /** An order's book, when the price guard needs it (a market order, a stop that triggers at once). */
  book?: Book;
  /** The requester's role now: their latest sign-in's (the role at the request when never signed in since). */
  role: Role;
  /** Whether the profiles exist and hold the funds: "ok", the refusal, or "unknown" when the service could not say. */
  funds?: "ok" | "unknown" | Problem;
}

export async function readFacts(rt: Runtime, create: Create, askedRole: Role, email: string): Promise<Facts> {
  const [policy, priced, role] = await Promise.all([
    currentPolicy(rt.db),
    readPrices(rt, create),
    roleNow(rt, email, askedRole),
  ]);
  return { policy, role, ...priced };
}

async function readPrices(rt: Runtime, create: Create) {
  if (create.kind === "transfer") {
    const { asset, amount } = create.request;
    const markets = marketsToValue(asset);
    if (asset !== "USD" && markets.length === 0) return { valueUsd: null };
    const tickers = await tickersOf(rt, markets);
    const mids = midsOf(tickers.map(([market, ticker]) => [market, ticker] as const));
    return { valueUsd: valueInUsd(amount, asset, mids) ?? priceUnavailable(markets) };
  }
  const order = create.request;
  const markets = marketsToValueOrder(order.market);
  const tickers = await tickersOf(rt, markets);
  // The order's own market must answer: the guard cannot weigh an order against a ticker it cannot read.
  if (!tickers.find(([market]) => market === order.market)?.[2]) return priceUnavailable([order.market]);
  const mids = midsOf(tickers.map(([market, ticker]) => [market, ticker] as const));
  const valueUsd = orderValueInUsd(order, mids) ?? priceUnavailable(markets);
  const mid = mids[order.market];
  // No price at all (an empty book, no trade yet): the order takes nothing now, there is no guard to weigh.
  if (!mid) return { valueUsd };
  const ticker = tickers.find(([market]) => market === order.market)?.[1];
  const quote: Quote = { mid, bid: amountIfSet(ticker?.best_bid?.price), ask: amountIfSet(ticker?.best_ask?.price) };
  const book = guardNeedsBook(order, mid) ? await bookOf(rt, order.market) : undefined;
  return { valueUsd, quote, book };
}

/** Each market's ticker: [market, its prices (undefined without any), whether the service answered]. */
export async function tickersOf(rt: Runtime, markets: readonly Market[]) {
  return Promise.all(
    [...new Set(markets)].map(async (market) => {
      const res = await rt.upstream.request({ method: "GET", path: `/markets/${market}/ticker`, fresh: true });
      const ticker = res.status === 200 ? (res.body as TickerPrices) : undefined;
      return [market, referencePriceOf(ticker) ? ticker : undefined, res.status === 200] as const;
    }),
  );
}

async function bookOf(rt: Runtime, market: Market): Promise<Book> {
  const res = await rt.upstream.request({ method: "GET", path: `/markets/${market}/order-book`, fresh: true });
  const book = res.body as Partial<Book> | null;
  if (res.status !== 200 || !Array.isArray(book?.bids) || !Array.isArray(book?.asks)) return priceUnavailable([market]);
  return { bids: book.bids, asks: book.asks };
}

export function priceUnavailable(markets: readonly Market[]): never {
  throw new ProblemError(
    problem(503, "Price Unavailable", "The service has no price to weigh this request against the desk's controls.", {
      markets: [...new Set(markets)],
    }),
  );
}

/**
 * The role the person holds now: their newest session's (a role comes from the sign-in: the demo
 * users' table, or the identity provider's claim), else the role they asked with.
 */
export async function roleNow(rt: Runtime, email: string, asked: Role): Promise<Role> {
  return (await latestRole(rt.db, email)) ?? asked;
}

/**
 * Whether the create's profiles exist (the one it spends from, and the one a transfer or an order
 * settling into another profile moves money into) and hold what it spends, as the service reports
 * them (GET /profiles/{id}/balances): a 404 for an unknown profile, the service's 403
 * insufficient-funds shape for a shortfall; "unknown" when the service cannot say (the
 * service's own answer to the create stays the final word then).
 */
export async function readFunds(rt: Runtime, create: Create): Promise<"ok" | "unknown" | Problem> {
  const spend = spendOf(create);
  // The profile it moves money into: a transfer's, or the other profile an order settles into.
  const toProfile = toProfileOf(create) ?? recipientElsewhereOf(create);
  const [from, to] = await Promise.all([
    balancesOf(rt, create.profileId),
    toProfile === undefined ? undefined : balancesOf(rt, toProfile),
  ]);
  if (from === "missing")
    return unknownProfile(create.profileId, create.kind === "order" ? "profile_id" : "from_profile_id");
  if (to === "missing")
    return unknownProfile(toProfile!, create.kind === "order" ? "recipient_profile_id" : "to_profile_id");
  if (from === "unknown" || !spend) return "unknown";
  const available = from.find((b) => b.asset === spend.asset)?.available ?? "0";
  if (compareDecimal(spend.amount, available) <= 0) return "ok";
  return {
    type: "/problems/insufficient-funds",
    title: "Insufficient Funds",
    status: 403,
    detail: `insufficient ${spend.asset} funds in profile ${create.profileId}: ${spend.amount} needed, ${available} available`,
    meta: { profile_id: create.profileId, asset: spend.asset, available, needed: spend.amount },
  };
}

/** The asset and amount the create takes from its profile: a buy's quote (price × amount, or its quote amount), a sell's base. */
function spendOf(create: Create): { asset: string; amount: string } | undefined {
  if (create.kind === "transfer") return { asset: create.request.asset, amount: create.request.amount };
  const o = create.request;
  const { base_asset: base, quote_asset: quote } = MARKET_DETAILS[o.market];
  if (o.side === "SELL") return o.base_amount ? { asset: base, amount: o.base_amount } : undefined;
  if (o.quote_amount) return { asset: quote, amount: o.quote_amount };
  return o.price && o.base_amount ? { asset: quote, amount: multiplyDecimal(o.price, o.base_amount) } : undefined;
}

/** What the create would spend from its profile, and what the profile holds of it now (null: the service cannot say). */
export async function spendNow(rt: Runtime, create: Create): Promise<ApprovalSpend | null> {
  const spend = spendOf(create);
  if (!spend) return null;
  const balances = await balancesOf(rt, create.profileId);
  const available = Array.isArray(balances) ? (balances.find((b) => b.asset === spend.asset)?.available ?? "0") : null;
  return { profile_id: create.profileId, ...spend, available };
}

/**
 * A profile's balances at the service now (GET /profiles/{id}/balances): its items, "missing" when
 * the service has no such profile (404), "unknown" when it could not say (any other answer, or none).
 */
export async function balancesOf(
  rt: Runtime,
  profileId: string,
): Promise<{ asset: string; available: string }[] | "missing" | "unknown"> {
  const res = await rt.upstream
    .request({ method: "GET", path: `/profiles/${encodeURIComponent(profileId)}/balances`, fresh: true })
    .catch(() => undefined);
  if (res?.status === 404) return "missing";
  const items = (res?.body as { items?: unknown } | null)?.items;
  return res?.status === 200 && Array.isArray(items) ? items : "unknown";
}

export function unknownProfile(profileId: string, field: string): Problem {
  const message = `There is no profile ${profileId} at the service`;
  return problem(404, "Not Found", `${field}: ${message}.`, { profile_id: profileId, errors: [{ field, message }] });
}
