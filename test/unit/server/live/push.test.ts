import { afterEach, describe, expect, it } from "vitest";
import { createOnce, createSpecOf } from "@/lib/server/creates";
import { testRuntime } from "../../../support/runtime";

const trader = { email: "trader@example.com", name: "Taylor Trader", role: "trader" as const };
const body = { market: "ETHUSD", side: "BUY", type: "LIMIT", price: "100.00", base_amount: "0.01", ref_id: "push-1" };

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

describe("a create made through the dashboard", () => {
  it("is pushed to the live streams as soon as the service answers it", async () => {
    const rt = await testRuntime(() => ({ body: { id: "o-1", status: "SUBMITTED", ...body } }));
    dispose = rt.dispose;
    await createOnce(rt.runtime, trader, createSpecOf("order", "trading", body));
    expect(rt.published).toEqual([{ name: "order", data: expect.objectContaining({ id: "o-1" }) }]);
  });

  it("is not pushed when the service refuses it", async () => {
    const rt = await testRuntime(() => ({ status: 422, body: { type: "about:blank", title: "Bad", status: 422 } }));
    dispose = rt.dispose;
    await createOnce(rt.runtime, trader, createSpecOf("order", "trading", { ...body, ref_id: "push-2" }));
    expect(rt.published).toEqual([]);
  });
});
