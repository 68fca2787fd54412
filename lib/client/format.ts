/**
 * Display formatting for amounts and times. Decimal strings are handed to Intl as strings,
 * which formats them exactly: an amount is never turned into a JS number to be shown.
 */
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

export const formatTime = (iso: string | undefined): string =>
  iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "short", timeStyle: "medium" }) : "—";

/** A datetime-local value (the browser's local time) as the 13-digit unix ms the service wants. */
export function toUnixMillis(local: string): string {
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? local : String(ms);
}
