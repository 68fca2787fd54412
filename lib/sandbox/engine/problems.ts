import type { Problem } from "@/lib/spec";

/**
 * A refusal the service answers with a problem+json body. Types are relative URIs
 * under the sandbox (RFC 9457 allows references); clients match on the last segment.
 */
export class ServiceProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
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
