import { describe, expect, it } from "vitest";
import { formatTime } from "@/lib/shared/format";

describe("formatTime", () => {
  it("shows an instant ISO-like, with its zone", () => {
    expect(formatTime("2026-11-23T17:04:28.123Z")).toBe("2026-11-23 17:04:28 UTC");
    expect(formatTime(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe("2026-01-02 03:04:05 UTC");
  });

  it("in local time names the offset", () => {
    // The test runner's zone is whatever the machine's is: the offset it prints must match it.
    const text = formatTime("2026-11-23T17:04:28Z", "local");
    expect(text).toMatch(/^2026-11-2[34] \d\d:04:28 GMT([+-]\d{1,2}(:\d\d)?)?$/);
    const offsetMinutes = -new Date("2026-11-23T17:04:28Z").getTimezoneOffset();
    const hour = (17 + Math.trunc(offsetMinutes / 60) + 24) % 24;
    if (offsetMinutes % 60 === 0) expect(text.slice(11, 13)).toBe(String(hour).padStart(2, "0"));
  });

  it("shows a dash for no time or a time it cannot read", () => {
    expect(formatTime(undefined)).toBe("—");
    expect(formatTime("")).toBe("—");
    expect(formatTime("not a time")).toBe("—");
  });
});
