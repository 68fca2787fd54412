import "server-only";
import type { RateClass } from "@/lib/spec";
import type { BudgetClass } from "./errors";

/**
 * What the budget allows each of its classes: the service's rate limits, from the configuration
 * or as published, and the share of the API's limit kept for creating and cancelling orders.
 */

export const BUDGET_CLASSES: readonly BudgetClass[] = ["api", "create", "transfer", "order-book", "token"];

/** Requests per second per rate class of the service, its token endpoint's included (SERVICE_*_RATE_PER_SECOND). */
export type BudgetRates = Record<RateClass | "token", number>;

/**
 * The service's published limits, per endpoint and caller IP: token endpoint 1/s, transfers
 * 20/s, order book and recent executions 10/s, the rest 50/s.
 */
export const PUBLISHED_RATES: BudgetRates = { api: 50, transfer: 20, "order-book": 10, token: 1 };

/**
 * The share of the service's API limit kept for creating and cancelling orders. Reads (pages,
 * the live watcher) book their slots up to their time limit ahead, so a create behind them in one
 * schedule would wait seconds or be refused: creates have their own schedule and calls in flight,
 * at this share of the limit, and reads theirs at the rest, so reads never spend what creates
 * need and the two together stay under the limit. Internal transfers have their own class.
 */
export const CREATE_SHARE = 0.2;

/** Requests per second of a budget class under the configured limits. */
export function rateOf(key: BudgetClass, rates: BudgetRates): number {
  if (key === "create") return rates.api * CREATE_SHARE;
  if (key === "api") return rates.api * (1 - CREATE_SHARE);
  return rates[key];
}

/** What the budget reads from the configuration. */
export interface BudgetEnv {
  service: { isSandbox: boolean };
  SERVICE_API_RATE_PER_SECOND?: number;
  SERVICE_TRANSFER_RATE_PER_SECOND?: number;
  SERVICE_ORDER_BOOK_RATE_PER_SECOND?: number;
  SERVICE_TOKEN_RATE_PER_SECOND?: number;
  SANDBOX_API_RATE_PER_SECOND: number;
  SANDBOX_TRANSFER_RATE_PER_SECOND: number;
  SANDBOX_ORDER_BOOK_RATE_PER_SECOND: number;
  SANDBOX_TOKEN_RATE_PER_SECOND: number;
}

/**
 * SERVICE_*_RATE_PER_SECOND when set; else the embedded sandbox's own limits when it is the
 * service, and the published ones for any other service.
 */
export function budgetRatesFromEnv(env: BudgetEnv): BudgetRates {
  const base: BudgetRates = env.service.isSandbox
    ? {
        api: env.SANDBOX_API_RATE_PER_SECOND,
        transfer: env.SANDBOX_TRANSFER_RATE_PER_SECOND,
        "order-book": env.SANDBOX_ORDER_BOOK_RATE_PER_SECOND,
        token: env.SANDBOX_TOKEN_RATE_PER_SECOND,
      }
    : PUBLISHED_RATES;
  return {
    api: env.SERVICE_API_RATE_PER_SECOND ?? base.api,
    transfer: env.SERVICE_TRANSFER_RATE_PER_SECOND ?? base.transfer,
    "order-book": env.SERVICE_ORDER_BOOK_RATE_PER_SECOND ?? base["order-book"],
    token: env.SERVICE_TOKEN_RATE_PER_SECOND ?? base.token,
  };
}

/** The service's published lockout after a 429: it refuses the caller everything for five minutes. */
export const PUBLISHED_PENALTY_SECONDS = 300;

/**
 * How long every call is held after a 429 that carries no Retry-After: SERVICE_RATE_PENALTY_SECONDS
 * when set; else the embedded sandbox's own penalty when it is the service, the published one otherwise.
 */
export function penaltyMsFromEnv(env: {
  service: { isSandbox: boolean };
  SERVICE_RATE_PENALTY_SECONDS?: number;
  SANDBOX_RATE_PENALTY_SECONDS: number;
}): number {
  const seconds =
    env.SERVICE_RATE_PENALTY_SECONDS ??
    (env.service.isSandbox ? Math.max(1, env.SANDBOX_RATE_PENALTY_SECONDS) : PUBLISHED_PENALTY_SECONDS);
  return seconds * 1000;
}
