import { randomUUID } from "node:crypto";
import { signIn, type Target } from "./app-server";
import { eventually } from "./eventually";
import { untilQuoted } from "./quotes";
import { RESERVE, SETTLEMENT, TRADING, TREASURY } from "./requests";

/**
 * A desk's worth of records, made as the desk makes them: through the dashboard's own API, as
 * its people. What a new user seeded when the screens misled them (issue 26): dozens of orders
 * and transfers, 60-character ref_ids and full metadata, requests held and then approved,
 * rejected or left waiting, cancelled and rejected orders, and creates the service refused.
 *
 * Plain values, no vitest: a bench or a script may seed with it too. The market maker should
 * quote (SANDBOX_MARKET_MAKER=on) so that market orders fill and a crossing post-only is refused.
 */

/** How many of each the seed makes (a held request counts once, where it ends up). */
export const DESK = { restingOrders: 40, marketOrders: 8, cancelledOrders: 6, sentTransfers: 30 } as const;

type Client = Awaited<ReturnType<typeof signIn>>;

/** A ref_id as a desk's systems write them: 60 characters, its purpose first. */
const deskRef = (purpose: string) => `${purpose}-${randomUUID()}-${randomUUID()}`.slice(0, 60);

/** Six key/value pairs, values long enough to wrap: the most the spec allows in count. */
const deskMetadata = (ref: string) => ({
  desk: "EMEA treasury, rates and liquidity",
  book: "month-end settlement of client balances",
  ticket: ref,
  trader_note: "rebalancing ahead of the quarterly close; see the desk's runbook",
  strategy: "passive",
  cost_centre: "TRS-4471-LON",
});

async function expectStatus(res: { status: number; body: unknown }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as any;
}

const order = (extra: Record<string, unknown>) => {
  const ref_id = deskRef(String(extra.side ?? "BUY").toLowerCase());
  return { market: "ETHUSD", side: "BUY", type: "LIMIT", ref_id, metadata: deskMetadata(ref_id), ...extra };
};

const transfer = (extra: Record<string, unknown>) => {
  const ref_id = deskRef("sweep");
  return {
    from_profile_id: TREASURY,
    to_profile_id: SETTLEMENT,
    asset: "USD",
    ref_id,
    metadata: deskMetadata(ref_id),
    ...extra,
  };
};

const placeOrder = (trader: Client, body: Record<string, unknown>, profile = TRADING) =>
  trader.call("POST", `/api/v2/profiles/${profile}/orders`, body);

/** The trader's orders: resting bids, filled market orders, cancelled ones, a post-only the service rejects. */
async function seedOrders(trader: Client): Promise<void> {
  for (let i = 0; i < DESK.restingOrders; i++) {
    const price = `${100 + i}.${i % 2 ? "05" : "50"}`; // on ETH/USD's 0.05 tick
    // The last, newest, with the longest amount a desk types: the widest cell to fit.
    const base_amount = i === DESK.restingOrders - 1 ? "1.23456789" : "0.0123";
    await expectStatus(await placeOrder(trader, order({ price, base_amount })), 200, "a resting bid");
  }
  // The bids above can come before the market maker's first quotes (seen once).
  await untilQuoted(trader, "ETHUSD");
  for (let i = 0; i < DESK.marketOrders; i++) {
    // A market buy names what it spends (quote_amount), a market sell what it sells.
    const amount = i % 2 ? { side: "SELL", base_amount: "0.0015" } : { side: "BUY", quote_amount: "5.00" };
    const body = order({ type: "MARKET", ...amount });
    await expectStatus(await placeOrder(trader, body), 200, "a market order");
  }
  for (let i = 0; i < DESK.cancelledOrders; i++) {
    const placed = await expectStatus(
      await placeOrder(trader, order({ price: "95.00", base_amount: "0.02" })),
      200,
      "a bid to cancel",
    );
    const id = placed.id ?? placed.order?.id;
    await expectStatus(
      await trader.call("DELETE", `/api/v2/profiles/${TRADING}/orders/${id}`),
      200,
      "cancelling a bid",
    );
  }
  // A post-only bid far above the market would take liquidity: the service rejects it.
  const crossing = order({ type: "POST_ONLY_LIMIT", price: "99999.00", base_amount: "0.01" });
  const rejected = await placeOrder(trader, crossing);
  if (rejected.status >= 500) throw new Error(`a crossing post-only: ${rejected.status}`);
}

/**
 * Ops' transfers: small ones sent, then (the rolling total past the 10,000 USD rule) held ones,
 * approved, rejected and one left waiting; and a transfer the service refuses for want of funds.
 */
async function seedTransfers(ops: Client, approver: Client): Promise<void> {
  for (let i = 0; i < DESK.sentTransfers; i++) {
    const amount = `${(i + 1) * 11}.${String(i).padStart(2, "0")}`;
    const to = i % 3 === 0 ? RESERVE : SETTLEMENT;
    await expectStatus(
      await ops.call("POST", "/api/v2/transfer/internal", transfer({ amount, to_profile_id: to })),
      200,
      "a transfer",
    );
  }
  const held = async () =>
    (
      await expectStatus(
        await ops.call("POST", "/api/v2/transfer/internal", transfer({ amount: "12500.00" })),
        202,
        "a held transfer",
      )
    ).approval.id as string;
  for (const id of [await held(), await held()]) {
    await expectStatus(await approver.call("POST", `/api/approvals/${id}/approve`), 200, "approving a transfer");
  }
  const toReject = await held();
  await expectStatus(
    await approver.call("POST", `/api/approvals/${toReject}/reject`, { reason: "Duplicate of this morning's sweep" }),
    200,
    "rejecting a transfer",
  );
  await held(); // left waiting
  // More LINK than the reserve holds: refused with a 4xx. A 503 asks to try again (on a loaded
  // machine the controls' price of LINK or the budget's room did not come in time, seen once):
  // tried again, a new request each time, as a person would, for up to 15 s.
  const unfunded = () =>
    ops.call(
      "POST",
      "/api/v2/transfer/internal",
      transfer({ from_profile_id: RESERVE, to_profile_id: TREASURY, asset: "LINK", amount: "999999999" }),
    );
  let last: Awaited<ReturnType<typeof unfunded>> | undefined;
  const send = async () => {
    last = await unfunded();
    return last.status === 503 ? undefined : last;
  };
  const refused = await eventually(send, 15_000, "an answer other than a 503", 500).catch(() => last!);
  if (refused.status >= 500 || refused.status < 400)
    throw new Error(`an unfunded transfer: ${refused.status} ${JSON.stringify(refused.body)}`);
}

/** Seeds `app` with a desk's worth of records (about a hundred requests). */
export async function seedDesk(app: Target): Promise<void> {
  const [trader, ops, approver] = await Promise.all(
    ["trader", "ops", "approver"].map((role) => signIn(app, `${role}@example.com`)),
  );
  // Two people, each in their own lock: side by side.
  await Promise.all([seedOrders(trader!), seedTransfers(ops!, approver!)]);
}
