import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { handleSandboxRequest } from "@/lib/sandbox/http";
import { SandboxRuntime } from "@/lib/sandbox/runtime";
import { DEMO_CUSTOMER_ID, MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, profileId } from "@/lib/sandbox/seed";
import { formatTrimmed } from "@/lib/sandbox/engine/amounts";
import { CLIENT, testConfig } from "../../support/sandbox-server";

/**
 * An acknowledged cancel across a restart of the sandbox, on a pinned clock: it is stored with its
 * time, carried out once that time has come (at start if it came while stopped), and a fill
 * before it still wins. Holds are released exactly when the order is CANCELLED.
 */

const TRADING = profileId("trading");
const config = testConfig({ cancelSettleMillis: 500 });
let t = 1_900_000_000_000;
const opened: SandboxRuntime[] = [];
afterEach(() => {
  for (const r of opened.splice(0)) r.stop();
  rmSync(config.dataDir, { recursive: true, force: true });
});

function start() {
  const runtime = new SandboxRuntime(config, () => t);
  opened.push(runtime);
  return runtime;
}
function stop(runtime: SandboxRuntime) {
  runtime.stop();
  opened.splice(opened.indexOf(runtime), 1);
}

/** DELETE through the sandbox's own handler, as the dashboard sends it. */
async function cancel(runtime: SandboxRuntime, orderId: string) {
  const client = runtime.clients.get(CLIENT.id)!;
  const token = runtime.tokens.issue(client, [...client.scopes]).access_token;
  const path = `/v2/profiles/${TRADING}/orders/${orderId}`;
  const res = await handleSandboxRequest(
    new Request(`http://sandbox.test/sandbox${path}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    }),
    path,
    runtime,
  );
  return { status: res.status, body: await res.json() };
}

function bid(runtime: SandboxRuntime) {
  return runtime.run((ex) => {
    const o = ex.submitOrder(DEMO_CUSTOMER_ID, TRADING, {
      market: "LTCUSD",
      type: "LIMIT",
      side: "BUY",
      price: "80.00",
      base_amount: "10",
    });
    ex.processSubmitted();
    return o.id;
  });
}
const usd = (runtime: SandboxRuntime) => {
  const b = runtime.exchange.ledger.balance(TRADING, "USD");
  return { available: formatTrimmed(b.available), trading: formatTrimmed(b.trading) };
};
const status = (runtime: SandboxRuntime, id: string) => runtime.exchange.orders.get(id)!.status;

describe("an acknowledged cancel across a restart", () => {
  it("whose time came while the sandbox was stopped is carried out at start, releasing the hold", async () => {
    const first = start();
    const before = usd(first);
    const id = bid(first);
    expect(await cancel(first, id)).toEqual({ status: 200, body: {} });
    expect(status(first, id)).toBe("OPEN");
    stop(first);

    t += 60_000;
    const second = start();
    expect(status(second, id)).toBe("CANCELLED");
    expect(usd(second)).toEqual(before);
    expect(second.exchange.orderBook("LTCUSD").bids).toEqual([]);
  });

  it("whose time has not come yet waits for it after the restart", async () => {
    const first = start();
    const id = bid(first);
    await cancel(first, id);
    stop(first);

    t += 200;
    const second = start();
    expect(status(second, id)).toBe("OPEN");
    expect(usd(second).trading).toBe("800");
    t += 300;
    second.run((ex) => ex.advance());
    expect(status(second, id)).toBe("CANCELLED");
    expect(usd(second).trading).toBe("0");
  });

  it("loses to a fill made before it took effect, restart or not", async () => {
    const first = start();
    const id = bid(first);
    await cancel(first, id);
    first.run((ex) => {
      ex.submitOrder(MARKET_MAKER_CUSTOMER_ID, MARKET_MAKER_PROFILE_ID, {
        market: "LTCUSD",
        type: "LIMIT",
        side: "SELL",
        price: "80.00",
        base_amount: "10",
      });
      ex.processSubmitted();
    });
    expect(status(first, id)).toBe("FILLED");
    stop(first);

    t += 60_000;
    const second = start();
    expect(status(second, id)).toBe("FILLED");
    expect(second.exchange.orders.get(id)!.filledBase).toBe(10n * 10n ** 18n);
    expect(usd(second).trading).toBe("0");
  });
});
