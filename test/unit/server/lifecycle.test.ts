import { describe, expect, it } from "vitest";
import { createLifecycle } from "@/lib/server/ops/lifecycle";

describe("the lifecycle a shutdown waits on", () => {
  it("is not stopping until begun; then its signal is aborted with the reason", () => {
    const l = createLifecycle();
    expect(l.stopping).toBe(false);
    expect(l.signal.aborted).toBe(false);
    l.begin("SIGTERM");
    l.begin("SIGINT");
    expect(l.stopping).toBe(true);
    expect(l.signal.reason).toBe("SIGTERM");
  });

  it("counts work in flight until each piece leaves, once however often its leave is called", () => {
    const l = createLifecycle();
    const a = l.enter();
    const b = l.enter();
    expect(l.inFlight).toBe(2);
    a();
    a();
    expect(l.inFlight).toBe(1);
    b();
    expect(l.inFlight).toBe(0);
  });

  it("is drained at once when nothing is in flight", async () => {
    expect(await createLifecycle().drained(10_000)).toBe(true);
  });

  it("is drained when the last tracked work settles, failed or not", async () => {
    const l = createLifecycle();
    let finish!: () => void;
    const work = l.track(new Promise<void>((resolve) => (finish = resolve)));
    const failing = l.track(Promise.reject(new Error("no"))).catch(() => "caught");
    const drained = l.drained(10_000);
    expect(l.inFlight).toBe(2);
    finish();
    await work;
    expect(await failing).toBe("caught");
    expect(await drained).toBe(true);
    expect(l.inFlight).toBe(0);
  });

  it("says false when the time runs out with work still in flight", async () => {
    const l = createLifecycle();
    l.enter();
    expect(await l.drained(20)).toBe(false);
    expect(l.inFlight).toBe(1);
  });
});
