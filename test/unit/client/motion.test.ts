import { afterEach, describe, expect, it, vi } from "vitest";
import { scrollBehavior } from "@/lib/client/motion";

/** A window whose system asks for less motion, or not. */
function systemAsks(reduce: boolean) {
  vi.stubGlobal("window", {
    matchMedia: (query: string) => ({ matches: reduce && query === "(prefers-reduced-motion: reduce)" }),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("scrollBehavior", () => {
  it("scrolls smoothly by default", () => {
    systemAsks(false);
    expect(scrollBehavior()).toBe("smooth");
  });

  it("jumps for a person who asked for less motion", () => {
    systemAsks(true);
    expect(scrollBehavior()).toBe("auto");
  });
});
