import { beforeAll, describe, expect, it } from "vitest";
import { addDecimal, amountIfSet, compareDecimal, divideDecimalDown, multiplyDecimal } from "@/lib/spec";
import { eventually, newRef, sharedDashboard, TRADING, type SharedDashboard } from "../../support/dashboard";

/**
 * Issue 29's measure of done, over real HTTP on the shared app with the sandbox's market maker
 * quoting: a 0.2 BTC TWAP over 60 s in 6 slices. The runtime's clock is moved to each slice's time
 * (the test control), never waited for: its children go 10 s ± 2 s apart, what they filled adds up
 * exactly to the parent's `filled_base`, at most 0.2 BTC, and no child fills worse than the cap.
 */

let d: SharedDashboard;
beforeAll(async () => {
  d = await sharedDashboard({ SANDBOX_MARKET_MAKER: "on" });
});

const serverNow = async () => Date.parse((await d.control.state()).now);

/** The market's mid now, from the dashboard's ticker. */
async function midOf(market: string): Promise<string> {
  const ticker = await eventually(
    async () => {
      const res = await d.as.trader.call("GET", `/api/v2/markets/${market}/ticker`);
      // An empty side reads "0" (the service's unset amount): the market maker has not quoted yet.
      const quoted = [res.body?.best_bid?.price, res.body?.best_ask?.price].every((p) => amountIfSet(p));
      return res.status === 200 && quoted ? res.body : undefined;
    },
    20_000,
    "the market maker's quotes",
  );
  return divideDecimalDown(addDecimal(ticker.best_bid.price, ticker.best_ask.price), "2", 2);
}

describe("a TWAP on the sandbox with its market maker", () => {
  it("works 0.2 BTC over 60 s in 6 slices, 10 s ± 2 s apart, filling within the whole and never past the cap", async () => {
    // A cap 2% above the mid, on the market's 0.25 tick.
    const cap = multiplyDecimal(divideDecimalDown(multiplyDecimal(await midOf("BTCUSD"), "1.02"), "0.25", 0), "0.25");
    const res = await d.as.trader.call("POST", "/api/parent-orders", {
      ref_id: newRef("twap"),
      profile_id: TRADING,
      market: "BTCUSD",
      side: "BUY",
      base_amount: "0.2",
      strategy: "TWAP",
      duration_seconds: 60,
      slices: 6,
      limit_price: cap,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const parent = res.body.parent_order;
    const read = async () => (await d.as.trader.call("GET", `/api/parent-orders/${parent.id}`)).body.parent_order;
    for (const child of parent.children) {
      const due = Date.parse(child.scheduled_at);
      const now = await serverNow();
      if (due > now) await d.control.advance(due - now);
      await eventually(
        async () => {
          const p = await read();
          const c = p.children[child.n - 1];
          if (c.sent_at && !["SENDING", "SUBMITTED", "OPEN", "PENDING_SUBMISSION"].includes(c.status)) return c;
          // The scheduler reads a child back half a second after sending it: that time, moved.
          await d.control.advance(500);
          return undefined;
        },
        20_000,
        `child ${child.n} sent and settled`,
      );
    }
    const done = await eventually(
      async () => {
        const p = await read();
        if (p.status === "COMPLETED") return p;
        await d.control.advance(500);
        return undefined;
      },
      20_000,
      "the parent to complete",
    );
    const sent = done.children.map((c: { sent_at: string }) => Date.parse(c.sent_at));
    for (let i = 1; i < sent.length; i++) {
      expect(Math.abs(sent[i] - sent[i - 1] - 10_000), `child ${i + 1} after child ${i}`).toBeLessThanOrEqual(2_000);
    }
    const filled = done.children.reduce(
      (sum: string, c: { amount_filled: string }) => addDecimal(sum, c.amount_filled),
      "0",
    );
    expect(filled).toBe(done.filled_base);
    expect(compareDecimal(done.filled_base, "0.2")).toBeLessThanOrEqual(0);
    expect(compareDecimal(done.filled_base, "0")).toBeGreaterThan(0);
    for (const c of done.children) {
      expect(compareDecimal(c.price, cap), `child ${c.n}'s price`).toBeLessThanOrEqual(0);
      if (c.average_price) expect(compareDecimal(c.average_price, cap), `child ${c.n}'s fills`).toBeLessThanOrEqual(0);
    }
    expect(done.quality).toMatchObject({ arrival_mid: expect.any(String), fill_vwap: expect.any(String) });
    expect(done.quality.slippage_bps).toMatch(/^-?\d+\.\d{2}$/);
  });
});
