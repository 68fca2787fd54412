"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { approvalKeys, type Approval } from "@/lib/client/approval-feed";
import { formatAmount, formatAsset, formatTickPrice } from "@/lib/shared/format";
import { useTicker } from "@/lib/client/queries";
import { levelPrice } from "@/lib/shared/ticker";
import type { ApprovalContext, ApprovalSpend, RequesterSends } from "@/lib/shared/approval-context";
import type { BatchFunds } from "@/lib/shared/batch";
import { addDecimal, compareDecimal } from "@/lib/spec/decimal";
import type { Market } from "@/lib/spec/enums";
import { marketLabel } from "@/lib/spec/markets";
import { referencePriceOf } from "@/lib/spec/valuation";
import { batchFundsWords } from "@/lib/shared/batch-approval-words";
import { distanceWords } from "./decision-words";
import { parentRequestOf } from "@/lib/shared/parent-approval-words";

const usd = (value: string) => `${formatAmount(value, { min: 2, max: 2 })} USD`;
const CONTEXT_EVERY_MS = 10_000;

/**
 * What an approver reads before deciding a held create (issue 20): the market now and how far
 * the order's prices are from it, what the request spends against what its profile has (for a
 * batch, what each sending profile sends per asset against what it has), and the requester's
 * sends of its kind today against their limits. A TWAP parent order reads as one order of its
 * whole at its cap: the market against the cap, the funds it would spend were it all to fill at
 * the cap, and the requester's orders. Read while the request waits.
 */
export function ApproverContext({ approval: a, nickname }: { approval: Approval; nickname: (id: string) => string }) {
  const context = useQuery({
    queryKey: [...approvalKeys.one(a.id), "context"],
    queryFn: ({ signal }) => api<ApprovalContext>(`/api/approvals/${encodeURIComponent(a.id)}/context`, { signal }),
    refetchInterval: CONTEXT_EVERY_MS,
  });
  const c = context.data;
  return (
    <dl
      aria-label="Before you decide"
      data-testid="approver-context"
      className="mt-3 grid gap-x-4 gap-y-1 rounded-md bg-surface-sunken p-3 text-sm sm:grid-cols-[auto_1fr]"
    >
      {a.kind === "order" && <MarketNow {...orderPrices(a.request as unknown as OrderPrices)} />}
      {a.kind === "parent_order" && (
        <MarketNow market={parentRequestOf(a).market} prices={[["Cap", parentRequestOf(a).limit_price]]} />
      )}
      <dt className="font-medium text-ink-muted">Funds</dt>
      <dd data-testid="context-funds">
        {c ? (
          a.kind === "batch" ? (
            <BatchFundsList funds={c.batch_funds ?? []} nickname={nickname} />
          ) : (
            <FundsWords
              spend={c.spend}
              nickname={nickname}
              atCap={a.kind === "parent_order" && parentRequestOf(a).side === "BUY"}
            />
          )
        ) : context.isError ? (
          "Not known now"
        ) : (
          "Reading…"
        )}
      </dd>
      <dt className="font-medium text-ink-muted">Sent today</dt>
      <dd data-testid="context-sends">
        {c?.requester ? (
          <SendsWords
            sends={c.requester}
            value={a.value_usd}
            thisOne={a.kind === "batch" ? "this batch" : a.kind === "parent_order" ? "this parent order" : "this one"}
          />
        ) : context.isError ? (
          "Not known now"
        ) : (
          "Reading…"
        )}
      </dd>
      {c?.requester_transfers && (
        <>
          <dt className="font-medium text-ink-muted">Transfers today</dt>
          <dd data-testid="context-transfers">
            It settles into another profile, so it counts as a transfer too.{" "}
            <SendsWords sends={c.requester_transfers} value={a.value_usd} />
          </dd>
        </>
      )}
    </dl>
  );
}

interface OrderPrices {
  market: Market;
  type: string;
  price?: string;
  stop_price?: string;
}

/** An order's own prices, each labelled: its limit, its stop. */
function orderPrices(order: OrderPrices): { market: Market; prices: [string, string][] } {
  const prices: [string, string][] = [];
  if (order.price) prices.push(["Limit", order.price]);
  if (order.stop_price) prices.push(["Stop", order.stop_price]);
  return { market: order.market, prices };
}

/** "BTC/USD mid 65,012.50 (bid 65,000.00, ask 65,025.00)" and each price's distance from the mid. */
function MarketNow({ market, prices }: { market: Market; prices: [string, string][] }) {
  const ticker = useTicker(market);
  const mid = referencePriceOf(ticker.data);
  const bid = levelPrice(ticker.data?.best_bid);
  const ask = levelPrice(ticker.data?.best_ask);
  return (
    <>
      <dt className="font-medium text-ink-muted">Market now</dt>
      <dd data-testid="context-market">
        {mid ? (
          <>
            {marketLabel(market)} mid <span className="font-semibold tabular-nums">{formatTickPrice(mid, market)}</span>
            {bid && ask && (
              <span className="text-ink-muted">
                {" "}
                (bid {formatAmount(bid, { min: 2 })}, ask {formatAmount(ask, { min: 2 })})
              </span>
            )}
            {prices.map(([label, price]) => (
              <span key={label} className="block" data-testid="context-distance">
                {label} {formatAmount(price, { min: 2 })}: {distanceWords(price, mid)}
              </span>
            ))}
            {prices.length === 0 && <span className="block">At the market: it trades at the book&apos;s prices.</span>}
          </>
        ) : ticker.isPending ? (
          "Reading…"
        ) : (
          "No price now"
        )}
      </dd>
    </>
  );
}

/**
 * What the request spends against what its profile has. `atCap`: a parent's buy, whose spend is
 * its whole at its cap, the most its children may spend.
 */
function FundsWords({
  spend,
  nickname,
  atCap = false,
}: {
  spend: ApprovalSpend | null;
  nickname: (id: string) => string;
  atCap?: boolean;
}) {
  if (!spend) return <>It spends no amount known before it trades.</>;
  const needs = `${formatAsset(spend.amount, spend.asset)} ${spend.asset}`;
  const cap = atCap ? " at most, all of it filled at the cap" : "";
  if (spend.available === null)
    return (
      <>
        Needs {needs}
        {cap}; the service cannot say now what the profile has.
      </>
    );
  const short = compareDecimal(spend.amount, spend.available) > 0;
  return (
    <span className={short ? "font-semibold text-sell" : ""}>
      {nickname(spend.profile_id)} has {formatAsset(spend.available, spend.asset)} {spend.asset} available; this needs{" "}
      {needs}
      {cap}
      {short ? ": not enough, the send will be refused." : "."}
    </span>
  );
}

/**
 * A batch's funds, one line per sending profile and asset: what it sends beside what it has now;
 * a profile short of it in red, by how much, since the whole batch is then refused at send.
 */
function BatchFundsList({ funds, nickname }: { funds: readonly BatchFunds[]; nickname: (id: string) => string }) {
  if (funds.length === 0) return <>Not known now</>;
  return (
    <ul data-testid="batch-funds" className="space-y-0.5">
      {funds.map((f) => {
        const w = batchFundsWords(f, nickname);
        return (
          <li
            key={`${f.profile_id}:${f.asset}`}
            data-short={w.short !== undefined}
            className={w.short ? "font-semibold text-sell" : ""}
          >
            {w.sends}; {w.has}
            {w.short ? (
              <>
                : <span data-testid="batch-short">{w.short}</span>.
              </>
            ) : (
              "."
            )}
          </li>
        );
      })}
    </ul>
  );
}

function SendsWords({
  sends,
  value,
  thisOne = "this one",
}: {
  sends: RequesterSends;
  value: string | null;
  /** What "with this one" names: "this batch". */
  thisOne?: string;
}) {
  const what = sends.kind === "order" ? "orders" : "transfers";
  const withThis = value ? addDecimal(sends.today_usd, value) : null;
  const over =
    sends.daily_limit_usd !== null && withThis !== null && compareDecimal(withThis, sends.daily_limit_usd) > 0;
  return (
    <>
      <span className={over ? "font-semibold text-sell" : ""}>
        {sends.email}: {usd(sends.today_usd)} of {what} sent or waiting today
        {sends.daily_limit_usd !== null ? `, of a ${usd(sends.daily_limit_usd)} daily limit` : ", no daily limit"}
        {withThis && `; ${usd(withThis)} with ${thisOne}`}
        {over ? ": past the limit, the send will be refused." : "."}
      </span>
      <span className="block text-ink-muted">
        {usd(sends.unapproved_24h_usd)} sent without approval in the last 24 h
        {sends.max_order_usd !== null && `; largest order for their role ${usd(sends.max_order_usd)}`}.
      </span>
    </>
  );
}
