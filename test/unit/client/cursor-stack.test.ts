import { describe, expect, it } from "vitest";
import { currentPage, firstPage, popPage, pushPage } from "@/lib/client/cursor-stack";

describe("cursor stack", () => {
  it("starts on the first page, without a cursor", () => {
    expect(currentPage(firstPage())).toEqual({ cursor: undefined, carry: [] });
  });

  it("goes forward with each next cursor and back the same way", () => {
    let s = firstPage();
    s = pushPage(s, "c2", ["group:a"]);
    s = pushPage(s, "c3");
    expect(s).toHaveLength(3);
    expect(currentPage(s)).toEqual({ cursor: "c3", carry: [] });
    s = popPage(s);
    expect(currentPage(s)).toEqual({ cursor: "c2", carry: ["group:a"] });
    s = popPage(s);
    expect(currentPage(s).cursor).toBeUndefined();
    expect(popPage(s)).toBe(s);
  });

  it("does not move past the last page (empty or missing next cursor)", () => {
    const s = firstPage();
    expect(pushPage(s, "")).toBe(s);
    expect(pushPage(s, null)).toBe(s);
    expect(pushPage(s, undefined)).toBe(s);
  });
});
