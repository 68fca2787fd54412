import "server-only";
import { approvalRuleFor, type CreateKind, type Policy } from "@/lib/policy";
import { PRICE_GUARD_TYPE, type PriceGuard } from "@/lib/price-guard";
import {
  addDecimal,
  compareDecimal,
  divideDecimalDown,
  MARKET_DETAILS,
  multiplyDecimal,
  problem,
  ProblemError,
  subtractDecimal,
  type Market,
} from "@/lib/spec";
import {
  marketsToValue,
  midsOf,
  orderValueInUsd,
  valueInUsd,
  type Mids,
  type OrderAmounts,
  type TickerPrices,
} from "@/lib/spec/valuation";
import { requestApproval, type Approval } from "./approvals";
import type { SignedInUser } from "./auth/session";
import { currentPolicy } from "./policies";
import type { Runtime } from "./runtime";

/**
 * The desk's controls on a create, after its request is checked and before it is journaled:
 * the pre-trade limits (a 403 naming the limit and the figures), the price guard (a 428 until
 * the market's name is typed to confirm), and four eyes (held for approval: the caller answers
 * 202 with the approval). (A ref_id already journaled or held never reaches here:
 * lib/server/creates.ts answers it with its record or its approval.)
 */

export interface ControlledCreate {
  kind: CreateKind;
  profileId: string;
  body: Record<string, unknown> & { ref_id: string };
  /** The market's name, as typed by the person confirming an order past the price guard. */
  confirmedMarket?: string | null;
  /** The earlier create this one repeats, when the person confirmed sending it again. */
  duplicateOf?: string | null;
}

export type ControlsOutcome = { hold: Approval } | { send: { valueUsd: string } };

export async function applyControls(
  rt: Runtime,
  user: SignedInUser,
  create: ControlledCreate,
  ip: string | null,
): Promise<ControlsOutcome> {
  const policy = await currentPolicy(rt.db);
  const { valueUsd, mids } = await valueOf(rt, create);
  if (create.kind === "order") {
    const order = create.body as unknown as OrderAmounts;
    checkOrderLimit(policy, user, valueUsd);
    await checkDailyLimit(rt, policy, user, valueUsd);
    await checkPriceGuard(rt, user, policy, order, mids, create.confirmedMarket, ip);
  }
  const rule = approvalRuleFor(policy.approval_rules, create.kind, valueUsd);
  if (!rule) return { send: { valueUsd } };
  const hold = await requestApproval(rt, user, { ...create, valueUsd, rule }, ip);
  return { hold };
}

/** The request's worth in USD at the service's mids; a 503 when the prices it needs are missing. */
async function valueOf(rt: Runtime, create: ControlledCreate) {
  const body = create.body as Record<string, string>;
  const markets =
    create.kind === "order"
      ? [
          body.market as Market,
          ...marketsToValue(MARKET_DETAILS[body.market as Market].quote_asset),
          ...marketsToValue(MARKET_DETAILS[body.market as Market].base_asset),
        ]
      : marketsToValue(body.asset!);
  if (create.kind === "transfer" && body.asset !== "USD" && markets.length === 0) throw unpricedAsset(body.asset!);
  const mids = await pricesOf(rt, markets);
  const valueUsd =
    create.kind === "order"
      ? orderValueInUsd(create.body as unknown as OrderAmounts, mids)
      : valueInUsd(body.amount!, body.asset!, mids);
  if (valueUsd === undefined) {
    throw new ProblemError(
      problem(503, "Price Unavailable", "The service has no price to value this request against the desk's controls.", {
        markets,
      }),
    );
  }
  return { valueUsd, mids };
}

/** An asset no market of the service prices in USD: the controls cannot weigh it, so it is refused, not let through. */
function unpricedAsset(asset: string): ProblemError {
  const message = `Asset ${asset} has no market at the service that prices it in USD, so the desk's controls cannot value it`;
  return new ProblemError(problem(400, "Bad Request", `asset: ${message}`, { errors: [{ field: "asset", message }] }));
}

async function pricesOf(rt: Runtime, markets: readonly Market[]): Promise<Mids> {
  const tickers = await Promise.all(
    [...new Set(markets)].map(async (market) => {
      const res = await rt.upstream.request({ method: "GET", path: `/markets/${market}/ticker`, fresh: true });
      return [market, res.status === 200 ? (res.body as TickerPrices) : undefined] as const;
    }),
  );
  return midsOf(tickers);
}

const limitRefused = (detail: string, meta: Record<string, unknown>) =>
  new ProblemError({ type: "/problems/limit-exceeded", title: "Limit Exceeded", status: 403, detail, meta });

function checkOrderLimit(policy: Policy, user: SignedInUser, valueUsd: string) {
  const limit = policy.limits.max_order_notional_usd[user.role];
  if (limit === undefined || compareDecimal(valueUsd, limit) <= 0) return;
  throw limitRefused(
    `An order may be worth at most ${limit} USD for the ${user.role} role; this one is ${usd(valueUsd)} USD.`,
    { rule: "max_order_notional_usd", role: user.role, limit, requested: usd(valueUsd), currency: "USD" },
  );
}

/** Today's (UTC) orders by this person, sent or waiting for approval, plus this one. */
async function checkDailyLimit(rt: Runtime, policy: Policy, user: SignedInUser, valueUsd: string) {
  const limit = policy.limits.daily_order_notional_usd_per_user;
  if (limit === null) return;
  const since = new Date();
  since.setUTCHours(0, 0, 0, 0);
  const [sent, waiting] = await Promise.all([
    rt.db
      .selectFrom("journal")
      .select("value_usd")
      .where("kind", "=", "order")
      .where("user_email", "=", user.email)
      .where("status", "!=", "failed")
      .where("created_at", ">=", since.toISOString())
      .execute(),
    rt.db
      .selectFrom("approvals")
      .select("value_usd")
      .where("kind", "=", "order")
      .where("requested_by", "=", user.email)
      .where("status", "=", "PENDING")
      .where("created_at", ">=", since.toISOString())
      .execute(),
  ]);
  const used = [...sent, ...waiting].reduce((sum, r) => (r.value_usd ? addDecimal(sum, r.value_usd) : sum), "0");
  if (compareDecimal(addDecimal(used, valueUsd), limit) <= 0) return;
  throw limitRefused(
    `You may send at most ${limit} USD of orders a day; ${usd(used)} USD are sent or waiting today, and this one is ${usd(valueUsd)} USD.`,
    { rule: "daily_order_notional_usd_per_user", limit, used: usd(used), requested: usd(valueUsd), currency: "USD" },
  );
}

/**
 * An order that would take liquidity further from the mid than the guard allows is refused
 * (428) until the person types the market's name to confirm; the confirmation is audited.
 */
async function checkPriceGuard(
  rt: Runtime,
  user: SignedInUser,
  policy: Policy,
  order: OrderAmounts,
  mids: Mids,
  confirmedMarket: string | null | undefined,
  ip: string | null,
) {
  const mid = mids[order.market];
  const worst = mid && (await worstTakingPrice(rt, order));
  if (!mid || !worst) return;
  const deviation = divideDecimalDown(multiplyDecimal(absDiff(worst, mid), "100"), mid, 2);
  const guard = policy.limits.price_guard_percent;
  if (compareDecimal(deviation, guard) <= 0) return;
  const meta: PriceGuard = {
    market: order.market,
    mid,
    price: worst,
    deviation_percent: deviation,
    limit_percent: guard,
  };
  if (confirmedMarket?.trim().toUpperCase() === order.market) {
    await rt.audit.append({ action: "price-guard.confirmed", actor: user, ip, subject: order.market, detail: meta });
    return;
  }
  throw new ProblemError({
    type: PRICE_GUARD_TYPE,
    title: "Confirmation Needed",
    status: 428,
    detail: `This order would trade ${deviation}% from the mid (${mid}), past the ${guard}% guard. Type ${order.market} to confirm.`,
    meta,
  });
}

/** The furthest price the order would trade at now, or undefined when it would rest or trigger later. */
async function worstTakingPrice(rt: Runtime, order: OrderAmounts): Promise<string | undefined> {
  if (order.type !== "LIMIT" && order.type !== "MARKET") return undefined;
  const res = await rt.upstream.request({ method: "GET", path: `/markets/${order.market}/order-book` });
  if (res.status !== 200) return undefined;
  const book = res.body as { bids: { price: string; amount: string }[]; asks: { price: string; amount: string }[] };
  const levels = order.side === "BUY" ? book.asks : book.bids;
  const crosses = (price: string) =>
    order.type === "MARKET" ||
    (order.side === "BUY" ? compareDecimal(price, order.price!) <= 0 : compareDecimal(price, order.price!) >= 0);
  let left = order.type === "MARKET" && order.side === "BUY" ? order.quote_amount! : order.base_amount!;
  let worst: string | undefined;
  for (const level of levels) {
    if (compareDecimal(left, "0") <= 0 || !crosses(level.price)) break;
    worst = level.price;
    const take =
      order.type === "MARKET" && order.side === "BUY" ? multiplyDecimal(level.amount, level.price) : level.amount;
    left = compareDecimal(take, left) >= 0 ? "0" : subtractDecimal(left, take);
  }
  return worst;
}

const absDiff = (a: string, b: string) => (compareDecimal(a, b) >= 0 ? subtractDecimal(a, b) : subtractDecimal(b, a));
/** A USD figure for people: cents. */
const usd = (value: string) => divideDecimalDown(value, "1", 2);
