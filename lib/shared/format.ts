/**
 * Display formatting for amounts and times. Decimal strings are handed to Intl as strings,
 * which formats them exactly: an amount is never turned into a JS number to be shown.
 */
import { BASE_AMOUNT_SCALE, isFiatAsset, QUOTE_AMOUNT_SCALE } from "@/lib/spec/markets";

const formatters = new Map<string, Intl.NumberFormat>();

export function formatAmount(
  value: string | undefined,
  { min = 0, max = 8 }: { min?: number; max?: number } = {},
): string {
  if (!value) return "—";
  const key = `${min}:${max}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { minimumFractionDigits: min, maximumFractionDigits: max });
    formatters.set(key, f);
  }
  // Intl.NumberFormat formats a numeric string exactly (ECMA-402 "string decimal" input).
  return f.format(value as unknown as number);
}

/**
 * An amount of `asset` to the asset's precision: fiat to the cent ("24,999,000.00"), crypto
 * to at most 8 decimals, as the service counts base amounts.
 */
export const formatAsset = (value: string | undefined, asset: string): string =>
  formatAmount(value, isFiatAsset(asset) ? { min: 2, max: QUOTE_AMOUNT_SCALE } : { max: BASE_AMOUNT_SCALE });

/** Where times are shown: in UTC, or in the browser's own time zone. */
export type TimeZoneChoice = "UTC" | "local";

/**
 * A time as the dashboard shows it everywhere, ISO-like and with its zone:
 * "2026-11-23 17:04:28 UTC", or in local time "2026-11-23 18:04:28 GMT+1".
 */
export function formatTime(iso: string | number | undefined, zone: TimeZoneChoice = "UTC"): string {
  if (iso === undefined || iso === "") return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  const parts = Object.fromEntries(
    zoneFormat(zone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const name = zone === "UTC" ? "UTC" : parts.timeZoneName;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${name}`;
}

const zoneFormats = new Map<TimeZoneChoice, Intl.DateTimeFormat>();
function zoneFormat(zone: TimeZoneChoice): Intl.DateTimeFormat {
  let f = zoneFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone === "UTC" ? "UTC" : undefined,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "shortOffset",
    });
    zoneFormats.set(zone, f);
  }
  return f;
}

/** A datetime-local value (the browser's local time) as the 13-digit unix ms the service wants. */
export function toUnixMillis(local: string): string {
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? local : String(ms);
}
