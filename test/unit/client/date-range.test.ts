import { afterEach, describe, expect, it } from "vitest";
import { dayEnd, dayRangeProblems, dayStart } from "@/lib/shared/date-range";

const zoneBefore = process.env.TZ;
afterEach(() => {
  process.env.TZ = zoneBefore;
});

describe("a day range in the chosen time zone", () => {
  it("in UTC, runs from the day's midnight UTC to the next day's, the last day included", () => {
    expect(dayStart("2026-11-23", "UTC")).toBe("2026-11-23T00:00:00.000Z");
    expect(dayEnd("2026-11-23", "UTC")).toBe("2026-11-24T00:00:00.000Z");
    expect(dayEnd("2026-12-31", "UTC")).toBe("2027-01-01T00:00:00.000Z");
  });

  it("in local time, runs from the local midnight, whatever the zone's offset", () => {
    process.env.TZ = "Asia/Singapore"; // UTC+8, no daylight saving
    expect(dayStart("2026-11-23", "local")).toBe("2026-11-22T16:00:00.000Z");
    expect(dayEnd("2026-11-23", "local")).toBe("2026-11-23T16:00:00.000Z");
    process.env.TZ = "America/New_York"; // a day of 25 hours when the clocks go back
    expect(dayStart("2026-11-01", "local")).toBe("2026-11-01T04:00:00.000Z");
    expect(dayEnd("2026-11-01", "local")).toBe("2026-11-02T05:00:00.000Z");
  });

  it("is undefined for a blank or malformed day, so no bound is sent", () => {
    expect(dayStart("", "UTC")).toBeUndefined();
    expect(dayEnd("23/11/2026", "local")).toBeUndefined();
  });
});

describe("a From/To pair as typed", () => {
  it("says a From after To on From, instead of listing nothing", () => {
    expect(dayRangeProblems("2026-11-26", "2026-11-25")).toEqual({ from: "From is after To: no day is in this range" });
    expect(dayRangeProblems("2026-11-25", "2026-11-25")).toEqual({});
    expect(dayRangeProblems("", "2026-11-25")).toEqual({});
  });

  it("asks for a day written year-month-day, not mm/dd/yyyy", () => {
    expect(dayRangeProblems("11/25/2026", "").from).toMatch(/such as 2026-11-25/);
    expect(dayRangeProblems("", "2026-13-40").to).toMatch(/year-month-day/);
  });
});
