import type { Problem } from "@/lib/spec";

/**
 * A refusal the service answers with a problem+json body. Types are relative URIs
 * under the sandbox (RFC 9457 allows references); clients match on the last segment.
 */
const BRAND = Symbol.for("treasury-dashboard.service-problem");

export class ServiceProblem extends Error {
  readonly [BRAND] = true;

  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }

  /**
   * `instanceof` by brand, not class identity: Next bundles the sandbox once for
   * instrumentation.ts (which starts it) and once for its route, and the route meets
   * problems thrown by the other copy's engine.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}

const typeOf = (slug: string) => `/sandbox/problems/${slug}`;

export const problems = {
  badRequest: (detail: string, meta?: Record<string, unknown>) =>
    new ServiceProblem({ type: "about:blank", title: "Bad Request", status: 400, detail, ...(meta ? { meta } : {}) }),
  notFound: (detail: string) => new ServiceProblem({ type: "about:blank", title: "Not Found", status: 404, detail }),
  forbidden: (detail: string) => new ServiceProblem({ type: "about:blank", title: "Forbidden", status: 403, detail }),
  insufficientFunds: (profileId: string, asset: string, available: string, needed: string) =>
    new ServiceProblem({
      type: typeOf("insufficient-funds"),
      title: "Insufficient Funds",
      status: 403,
      detail: `insufficient ${asset} funds in profile ${profileId}: ${needed} needed, ${available} available`,
      meta: { profile_id: profileId, asset, available, needed },
    }),
  marketConditions: (detail: string) =>
    new ServiceProblem({
      type: typeOf("market-conditions-prevented-execution"),
      title: "Market Conditions Prevented Execution",
      status: 403,
      detail,
    }),
  alreadyExists: (detail: string, existing?: unknown) =>
    new ServiceProblem({
      type: typeOf("already-exists"),
      title: "Already Exists",
      status: 409,
      detail,
      ...(existing ? { meta: { existing } } : {}),
    }),
};
