/**
 * Money on the wire is a decimal string and stays one: it is parsed into a scaled
 * bigint (`units` at a given `scale`) for arithmetic and never into a JS number.
 */

/** The service's own amount pattern: digits with an optional fraction, such as "12", "0.5" or ".5". */
export const DECIMAL_PATTERN = /^(?:\d+(?:\.\d+)?|\.\d+)$/;
const MAX_INTEGER_DIGITS = 20;
const MAX_FRACTION_DIGITS = 18;
/**
 * Every character counts, leading zeros included: the largest amount the digit bounds allow
 * fits, while "0" repeated 100,000 times before "10" is refused before it is stored or sent.
 */
export const DECIMAL_MAX_CHARS = MAX_INTEGER_DIGITS + 1 + MAX_FRACTION_DIGITS;

export type DecimalProblem = "length" | "format" | "integer_digits" | "fraction_digits" | "not_positive";

/** Why `text` is not a positive decimal within the bounds, or null when it is one. */
export function decimalProblem(text: string): DecimalProblem | null {
  if (text.length > DECIMAL_MAX_CHARS) return "length";
  if (!DECIMAL_PATTERN.test(text)) return "format";
  const [whole = "", fraction = ""] = text.split(".");
  if (whole.replace(/^0+/, "").length > MAX_INTEGER_DIGITS) return "integer_digits";
  if (fraction.length > MAX_FRACTION_DIGITS) return "fraction_digits";
  if (!/[1-9]/.test(text)) return "not_positive";
  return null;
}

export const DECIMAL_PROBLEM_TEXT: Record<DecimalProblem, (label: string) => string> = {
  length: (label) => `${label} may be at most ${DECIMAL_MAX_CHARS} characters long, leading zeros included`,
  format: (label) =>
    `${label} must be a decimal number such as 1250.50: digits with an optional decimal point, no sign, exponent, spaces or separators`,
  integer_digits: (label) => `${label} may have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`,
  fraction_digits: (label) => `${label} may have at most ${MAX_FRACTION_DIGITS} decimal places`,
  not_positive: (label) => `${label} must be greater than zero`,
};

/** Number of digits after the decimal point. */
export function scaleOf(text: string): number {
  const dot = text.indexOf(".");
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** "12.5" at scale 2 -> 1250n. Throws when `text` has more fraction digits than `scale`. */
export function toUnits(text: string, scale: number): bigint {
  const [whole = "", fraction = ""] = text.split(".");
  if (fraction.length > scale) throw new RangeError(`${text} has more than ${scale} decimal places`);
  return BigInt((whole || "0") + fraction.padEnd(scale, "0"));
}

/** 1250n at scale 2 -> "12.50". */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const body = scale === 0 ? whole : `${whole}.${digits.slice(-scale)}`;
  return negative ? `-${body}` : body;
}

/** Compares two decimal strings exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const x = toUnits(a, scale);
  const y = toUnits(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** True when `value` is a whole multiple of `step` ("100.25" of "0.25"). */
export function isMultipleOf(value: string, step: string): boolean {
  const scale = Math.max(scaleOf(value), scaleOf(step));
  return toUnits(value, scale) % toUnits(step, scale) === 0n;
}

/** a * b, exact, as a decimal string. */
export function multiplyDecimal(a: string, b: string): string {
  const sa = scaleOf(a);
  const sb = scaleOf(b);
  return trimZeros(fromUnits(toUnits(a, sa) * toUnits(b, sb), sa + sb));
}

/** a / b rounded down to `scale` decimals ("what this budget buys"); "0" when b is zero. */
export function divideDecimalDown(a: string, b: string, scale: number): string {
  const s = Math.max(scaleOf(a), scaleOf(b));
  const divisor = toUnits(b, s);
  if (divisor === 0n) return "0";
  return fromUnits((toUnits(a, s) * 10n ** BigInt(scale)) / divisor, scale);
}

/** `percent`% of `amount`, rounded down to `scale` decimals (balance presets). */
export function percentOfDown(amount: string, percent: number, scale: number): string {
  return divideDecimalDown(multiplyDecimal(amount, String(percent)), "100", scale);
}

/** "12.500" -> "12.5", "3.000" -> "3". */
export function trimZeros(text: string): string {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/** a + b, exact ("0.1" + "0.2" = "0.3"). */
export function addDecimal(a: string, b: string): string {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return trimZeros(fromUnits(toUnits(a, scale) + toUnits(b, scale), scale));
}

/** Halfway between a and b, exact: halving needs at most one more decimal place. */
export function midpointDecimal(a: string, b: string): string {
  const sum = addDecimal(a, b);
  const scale = scaleOf(sum) + 1;
  return trimZeros(fromUnits(toUnits(sum, scale) / 2n, scale));
}

/** `text` (not negative) to `scale` decimals, a half rounded up: "2.345" -> "2.35" at 2. */
export function roundDecimalHalfUp(text: string, scale: number): string {
  const given = scaleOf(text);
  if (given <= scale) return fromUnits(toUnits(text, scale), scale);
  const step = 10n ** BigInt(given - scale);
  return fromUnits((toUnits(text, given) + step / 2n) / step, scale);
}

/** a / b (neither negative) to `scale` decimals, a half rounded up; "0" when b is zero. */
export function divideDecimalHalfUp(a: string, b: string, scale: number): string {
  const s = Math.max(scaleOf(a), scaleOf(b));
  const divisor = toUnits(b, s);
  if (divisor === 0n) return "0";
  // floor(a / b + 1/2), in whole units of the result's last place.
  return fromUnits((2n * toUnits(a, s) * 10n ** BigInt(scale) + divisor) / (2n * divisor), scale);
}

/** a - b, exact; negative when b is larger. */
export function subtractDecimal(a: string, b: string): string {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return trimZeros(fromUnits(toUnits(a, scale) - toUnits(b, scale), scale));
}

/**
 * A record's price or amount as the service left it: `""` (Get and Create Order), `"0"` (List
 * Orders), a zero with decimals, `null` or an absent field all mean "not used by this order"
 * (a market buy's base_amount and price). Undefined then; otherwise the text as sent.
 */
export function amountIfSet(value: string | null | undefined): string | undefined {
  return typeof value === "string" && DECIMAL_PATTERN.test(value) && /[1-9]/.test(value) ? value : undefined;
}
