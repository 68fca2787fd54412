/**
 * The one way the dashboard writes numbers, markets and times: every page, chart and error
 * formats through here. Pure (no browser APIs beyond Intl), so the server may use it too.
 * Decimal strings are handed to Intl as strings, which formats them exactly: an amount is
 * never turned into a JS number to be shown.
 */
import type { Market } from "@/lib/spec/enums";
import { BASE_AMOUNT_SCALE, isFiatAsset, MARKET_DETAILS, marketLabel, QUOTE_AMOUNT_SCALE } from "@/lib/spec/markets";

const formatters = new Map<string, Intl.NumberFormat>();

/** A decimal string grouped ("1,000,000.5") to between `min` and `max` decimals; "—" for none. */
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

/** An amount with its asset, the way every page and error writes one: "100,000.00 USD", "0.5 BTC". */
export const formatMoney = (value: string | undefined, asset: string): string =>
  `${formatAsset(value, asset)} ${asset}`;

/** A USD value ("20,000.00 USD"): limits, thresholds, what a request is worth. */
export const formatUsd = (value: string | undefined): string => formatMoney(value, "USD");

/** A price, grouped, to the cent or the market's finer tick: "64,912.50", "0.5123". */
export const formatPrice = (value: string | undefined): string => formatAmount(value, { min: 2 });

/**
 * A price that may be finer than the market trades (a mid, an average), rounded to the market's
 * tick as the ladder shows prices: a mid of 65,224.125 reads "65,224.13".
 */
export function formatTickPrice(value: string | undefined, market: Market): string {
  const decimals = MARKET_DETAILS[market].tick_rate.split(".")[1]?.length ?? 0;
  return formatAmount(value, { min: 2, max: Math.max(2, decimals) });
}

/** A count of things, grouped: "12,480". */
export const formatCount = (n: number): string => n.toLocaleString("en-US");

/** A market as every page and error names it: "BTC/USD", never "BTCUSD". */
export const formatMarket = marketLabel;

// ——— Amounts as typed ———

/** Digits with optional "," thousands separators in the right places, and an optional fraction. */
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * A typed amount as the service takes it: "1,000,000.50" -> "1000000.50". Separators are
 * taken only where they group thousands; anything else is returned trimmed and unchanged,
 * for the form's schema to name. Never throws.
 */
export function parseAmountInput(text: string): string {
  const trimmed = text.trim();
  return GROUPED.test(trimmed) ? trimmed.replaceAll(",", "") : trimmed;
}

/**
 * A typed amount shown grouped once the person leaves the field: "10000000" -> "10,000,000",
 * "2500.5" stays "2,500.5" (the decimals typed are kept). Text that is not an amount is left
 * as typed, so the error beside it can say why.
 */
export function groupAmountInput(text: string): string {
  const plain = parseAmountInput(text);
  const m = /^(\d+)(\.\d*)?$/.exec(plain);
  if (!m) return text.trim();
  const whole = m[1]!.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return whole + (m[2] ?? "");
}

/** A typed percentage as the service takes it: "12.5 %" -> "12.5"; anything else unchanged, trimmed. */
export function parsePercentInput(text: string): string {
  return text.trim().replace(/\s*%$/, "");
}

// ——— Times ———

/** Where times are shown: in UTC, or in the browser's own time zone. */
export type TimeZoneChoice = "UTC" | "local";

/** The parts of an instant in the chosen zone, or undefined for a time that cannot be read. */
function partsOf(iso: string | number | undefined, zone: TimeZoneChoice): Record<string, string> | undefined {
  if (iso === undefined || iso === "") return undefined;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  const parts = Object.fromEntries(
    zoneFormat(zone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return { ...parts, zone: zone === "UTC" ? "UTC" : parts.timeZoneName! };
}

/**
 * A time as the dashboard shows it everywhere, ISO-like and with its zone:
 * "2026-11-23 17:04:28 UTC", or in local time "2026-11-23 18:04:28 GMT+1".
 */
export function formatTime(iso: string | number | undefined, zone: TimeZoneChoice = "UTC"): string {
  const p = partsOf(iso, zone);
  return p ? `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.zone}` : "—";
}

/** The day of an instant in the chosen zone, as date filters take it: "2026-11-25". */
export function formatDay(iso: string | number | undefined, zone: TimeZoneChoice = "UTC"): string {
  const p = partsOf(iso, zone);
  return p ? `${p.year}-${p.month}-${p.day}` : "—";
}

/** The clock time of an instant in the chosen zone, for a chart's time axis: "17:04:28". */
export function formatClock(iso: string | number | undefined, zone: TimeZoneChoice = "UTC"): string {
  const p = partsOf(iso, zone);
  return p ? `${p.hour}:${p.minute}:${p.second}` : "—";
}

/** The zone's name as the times show it: "UTC", or the browser's offset now ("GMT+1"). */
export function zoneName(zone: TimeZoneChoice, at: string | number = Date.now()): string {
  return partsOf(at, zone)?.zone ?? "UTC";
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
