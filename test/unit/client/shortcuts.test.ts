import { describe, expect, it } from "vitest";
import { isTyping, shellShortcut } from "@/lib/client/shortcuts";

const press = (key: string, extra: Partial<Parameters<typeof shellShortcut>[0]> = {}) =>
  shellShortcut({
    key,
    ctrlKey: false,
    altKey: false,
    metaKey: false,
    defaultPrevented: false,
    target: null,
    ...extra,
  });
const element = (tagName: string, isContentEditable = false) =>
  ({ tagName, isContentEditable }) as unknown as EventTarget;

describe("the shell's shortcuts", () => {
  it("answers ? with the help and / with the table filter", () => {
    expect(press("?")).toBe("help");
    expect(press("/")).toBe("filter");
    expect(press("?", { target: element("BUTTON") })).toBe("help");
    expect(press("x")).toBeNull();
    expect(press("b")).toBeNull(); // the ticket's own
  });

  it("leaves keys typed into a field alone", () => {
    for (const tag of ["INPUT", "SELECT", "TEXTAREA"]) expect(press("/", { target: element(tag) })).toBeNull();
    expect(press("?", { target: element("DIV", true) })).toBeNull();
    expect(isTyping(element("A"))).toBe(false);
  });

  it("leaves the browser's and the system's combinations alone", () => {
    expect(press("/", { ctrlKey: true })).toBeNull();
    expect(press("?", { metaKey: true })).toBeNull();
    expect(press("/", { altKey: true })).toBeNull();
    expect(press("/", { defaultPrevented: true })).toBeNull();
  });
});
