import type { TimeZoneChoice } from "./format";

/**
 * A day picked in a date field ("2026-11-23"), read in the zone the person chose, as the
 * instants a list route filters on: a range runs from the start of its first day to the start
 * of the day after its last, so "to" includes the whole of its day.
 */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function startOfDay(day: string, zone: TimeZoneChoice, plusDays: number): string | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays];
  const date = zone === "UTC" ? new Date(Date.UTC(y, mo, d)) : new Date(y, mo, d);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** True for a day of the calendar written "2026-11-25" (not "2026-13-40"). */
function isDay(day: string): boolean {
  const m = DAY.exec(day);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().startsWith(day);
}

/** The first instant of `day`; undefined for a blank or malformed day. */
export const dayStart = (day: string, zone: TimeZoneChoice) => startOfDay(day, zone, 0);

/** The first instant after `day` (an exclusive end). */
export const dayEnd = (day: string, zone: TimeZoneChoice) => startOfDay(day, zone, 1);

/**
 * What is wrong with a From/To pair as typed, on the field it concerns: a day not written as
 * "2026-11-25", or a From after To (which no day satisfies: said, not shown as "No match").
 */
export function dayRangeProblems(from: string, to: string): { from?: string; to?: string } {
  const malformed = (day: string) =>
    day.trim() !== "" && !isDay(day.trim()) ? "Write the day as year-month-day, such as 2026-11-25" : undefined;
  const problems = { from: malformed(from), to: malformed(to) };
  if (!problems.from && !problems.to && from && to && from.trim() > to.trim())
    return { from: "From is after To: no day is in this range" };
  return problems;
}
