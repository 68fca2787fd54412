import type { $ZodError } from "zod/v4/core";

/** An RFC 9457 problem, the error body of the service and of the dashboard's back end. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  meta?: Record<string, unknown>;
}

/** A problem with no type of its own (RFC 9457's "about:blank"): the title says what kind. */
export const problem = (status: number, title: string, detail: string, meta?: Record<string, unknown>): Problem => ({
  type: "about:blank",
  title,
  status,
  detail,
  ...(meta ? { meta } : {}),
});

const PROBLEM_BRAND = "treasury-dashboard.problem";

/**
 * The one error that carries a problem: thrown by the back end, the sandbox and the browser's
 * API client alike, and answered (or shown) as its problem.
 *
 * `instanceof` goes by a brand, not class identity: Next bundles server modules once for
 * instrumentation.ts and once for the routes, and both share the one runtime, so a route can
 * meet an error made by the other copy of this class.
 */
export class ProblemError extends Error {
  readonly brand = PROBLEM_BRAND;

  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { brand?: unknown }).brand === PROBLEM_BRAND;
  }
}

/** One refused field: its dotted path ("metadata.desk") and the rule, in words. */
export interface FieldError {
  field: string;
  message: string;
}

/** Flattens zod issues to one entry per field; an unknown key becomes an error on that key. */
export function fieldErrors(error: $ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: [...base, key].join("."), message: `Unknown field "${key}"` }));
    }
    return [{ field: base.join(".") || "body", message: issue.message }];
  });
}

/** The 400 problem for a refused request: `detail` names each field and rule, `meta.errors` lists them. */
export function validationProblem(error: $ZodError): Problem {
  const errors = fieldErrors(error);
  return {
    type: "about:blank",
    title: "Bad Request",
    status: 400,
    detail: errors.map((e) => `${e.field}: ${e.message}`).join("; "),
    meta: { errors },
  };
}

/** True when a value looks like a problem body, whatever sent it. */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.title === "string" && typeof v.status === "number";
}
