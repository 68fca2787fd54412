import * as z from "zod/mini";
import { decimalProblem, DECIMAL_PROBLEM_TEXT } from "./decimal";
import { charCount, IDENTIFIER_MAX_CHARS, METADATA_MAX_CHARS, METADATA_MAX_PAIRS, REF_ID_MAX_CHARS } from "./limits";

/** Field schemas shared by the order and transfer requests. */

/** A string field whose errors name it the way a person would. */
export function text(label: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) });
}

/**
 * An identifier the service issued or the client chose (profile, identity, account).
 * Kept to characters that are safe in a URL path: no "/", no "..", no spaces.
 */
export function identifier(label: string) {
  return text(label).check(
    z.minLength(1, `${label} must not be empty`),
    z.maxLength(IDENTIFIER_MAX_CHARS, `${label} may be at most ${IDENTIFIER_MAX_CHARS} characters`),
    z.regex(/^[A-Za-z0-9_:.-]+$/, `${label} may contain only letters, digits and - _ : .`),
    z.refine((v) => !v.includes(".."), `${label} must not contain ".."`),
  );
}

/** The client's idempotence key: visible ASCII, no spaces. */
export const refIdSchema = text("Ref ID").check(
  z.minLength(1, "Ref ID must not be empty"),
  z.maxLength(REF_ID_MAX_CHARS, `Ref ID may be at most ${REF_ID_MAX_CHARS} characters`),
  z.regex(
    /^[\x21-\x7E]+$/,
    "Ref ID may contain only visible ASCII characters (letters, digits, punctuation), no spaces",
  ),
);

/**
 * Keys that would reach an object's prototype rather than become a pair of their own: a record
 * built from them silently loses them (so they escaped the pair count). Refused by name.
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Client metadata: at most 6 pairs, each key and value a string of at most 100 characters. */
export function metadataSchema(label: string) {
  // Checked on the parsed JSON itself, where such a key is still an own property: the record
  // zod builds from it would drop it before any later check could count it.
  const noPrototypeKeys = z.unknown().check(
    z.check((ctx) => {
      if (typeof ctx.value !== "object" || ctx.value === null) return;
      for (const key of Object.keys(ctx.value)) {
        if (PROTOTYPE_KEYS.has(key)) {
          ctx.issues.push({
            code: "custom",
            input: key,
            path: [key],
            message: `${label} key "${key}" is a reserved name (__proto__, constructor and prototype are refused)`,
          });
        }
      }
    }),
  );
  return z.pipe(
    noPrototypeKeys,
    z
      .record(z.string(), z.string({ error: `${label} values must be text` }), {
        error: `${label} must be an object of text keys and values`,
      })
      .check(
        z.check((ctx) => {
          const entries = Object.entries(ctx.value);
          if (entries.length > METADATA_MAX_PAIRS) {
            ctx.issues.push({
              code: "custom",
              input: ctx.value,
              message: `${label} may have at most ${METADATA_MAX_PAIRS} pairs (has ${entries.length})`,
            });
          }
          for (const [key, value] of entries) {
            if (key.length === 0) {
              ctx.issues.push({ code: "custom", input: key, path: [key], message: `${label} keys must not be empty` });
            }
            if (charCount(key) > METADATA_MAX_CHARS) {
              ctx.issues.push({
                code: "custom",
                input: key,
                path: [key],
                message: `${label} key "${key.slice(0, 20)}…" is longer than ${METADATA_MAX_CHARS} characters`,
              });
            }
            if (typeof value === "string" && charCount(value) > METADATA_MAX_CHARS) {
              ctx.issues.push({
                code: "custom",
                input: value,
                path: [key],
                message: `${label} value for "${key}" is longer than ${METADATA_MAX_CHARS} characters`,
              });
            }
          }
        }),
      ),
  );
}

/** A positive decimal string, validated without ever becoming a JS number. */
export const positiveDecimal = (label: string) => decimalField(label, false);

/** A decimal string of 0 or more (a target balance, a band), within the same bounds as an amount. */
export const nonNegativeDecimal = (label: string) => decimalField(label, true);

function decimalField(label: string, zeroAllowed: boolean) {
  const error = (issue: { input: unknown }) =>
    issue.input === undefined
      ? `${label} is required`
      : `${label} must be a decimal written as a string, such as "1250.50" (a JSON number loses precision)`;
  return z.string({ error }).check(
    z.check((ctx) => {
      const problem = decimalProblem(ctx.value);
      if (problem && !(zeroAllowed && problem === "not_positive")) {
        ctx.issues.push({ code: "custom", input: ctx.value, message: DECIMAL_PROBLEM_TEXT[problem](label) });
      }
    }),
  );
}

/** A decimal as the service returns it in records: non-negative, or "" when unused. */
export const recordDecimal = z.string().check(z.regex(/^(?:|\d+(?:\.\d+)?|\.\d+)$/, "Expected a decimal string"));
