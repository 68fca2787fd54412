import { afterEach, describe, expect, it, vi } from "vitest";
import { movableClock, systemClock } from "@/lib/server/clock";

afterEach(() => {
  vi.useRealTimers();
});

describe("the movable clock", () => {
  it("is the machine's time plus what was added", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-26T12:00:00Z") });
    const clock = movableClock();
    expect(clock.now()).toBe(Date.now());
    clock.advance(90_000);
    expect(clock.now() - Date.now()).toBe(90_000);
    expect(clock.offset).toBe(90_000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });

  it("runs what fell due when moved, in the order it fell due, and nothing early", () => {
    vi.useFakeTimers();
    const clock = movableClock();
    const ran: string[] = [];
    clock.after(3_000, () => ran.push("3 s"));
    clock.after(1_000, () => ran.push("1 s"));
    clock.after(60_000, () => ran.push("1 min"));
    clock.advance(2_999);
    expect(ran).toEqual(["1 s"]);
    clock.advance(1);
    expect(ran).toEqual(["1 s", "3 s"]);
    clock.advance(10 * 60_000);
    expect(ran).toEqual(["1 s", "3 s", "1 min"]);
    // Each ran once: real time passing later runs none again.
    vi.advanceTimersByTime(120_000);
    expect(ran).toHaveLength(3);
  });

  it("still runs a timer when real time reaches it, unmoved", () => {
    vi.useFakeTimers();
    const clock = movableClock();
    const ran = vi.fn();
    clock.after(500, ran);
    vi.advanceTimersByTime(499);
    expect(ran).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(ran).toHaveBeenCalledOnce();
  });

  it("cancels: a cancelled timer never runs, moved or not", () => {
    vi.useFakeTimers();
    const clock = movableClock();
    const ran = vi.fn();
    const cancel = clock.after(1_000, ran);
    cancel();
    clock.advance(5_000);
    vi.advanceTimersByTime(5_000);
    expect(ran).not.toHaveBeenCalled();
  });

  it("runs an `every` once per move however many periods it skipped, then keeps its period", () => {
    vi.useFakeTimers();
    const clock = movableClock();
    const ran = vi.fn();
    const stop = clock.every(30_000, ran);
    clock.advance(10 * 60_000);
    expect(ran).toHaveBeenCalledTimes(1);
    clock.advance(30_000);
    expect(ran).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(30_000);
    expect(ran).toHaveBeenCalledTimes(3);
    stop();
    clock.advance(60_000);
    vi.advanceTimersByTime(60_000);
    expect(ran).toHaveBeenCalledTimes(3);
  });
});

describe("a clock that skips sleeps", () => {
  it("ends a sleep at its end, however much real time passes while it is ending", async () => {
    const clock = movableClock({ skipSleeps: true });
    let machine = 1_000_000;
    // Each reading of the machine's time is 2 ms later: a busy machine between two looks.
    const spy = vi.spyOn(Date, "now").mockImplementation(() => (machine += 2));
    try {
      const start = clock.now();
      await clock.sleep(2.5);
      expect(clock.now() - start).toBeGreaterThanOrEqual(2.5);
      await clock.sleep(10_000);
      expect(clock.now() - start).toBeGreaterThanOrEqual(10_002.5);
      expect(Number.isInteger(clock.offset)).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("the system clock", () => {
  it("is the machine's: Date.now, and timers that never keep the process alive", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    expect(systemClock.now()).toBe(1_000_000);
    const ran = vi.fn();
    const cancel = systemClock.after(100, ran);
    vi.advanceTimersByTime(100);
    expect(ran).toHaveBeenCalledOnce();
    const every = vi.fn();
    const stop = systemClock.every(100, every);
    vi.advanceTimersByTime(300);
    expect(every).toHaveBeenCalledTimes(3);
    stop();
    cancel();
    vi.advanceTimersByTime(300);
    expect(every).toHaveBeenCalledTimes(3);
  });
});
