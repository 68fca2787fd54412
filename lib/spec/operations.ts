/**
 * Every operation of the service the dashboard uses, and the embedded sandbox serves, once: its
 * method, its path below `/v2` as a template, the OAuth scope the service requires
 * for it (none for public market data) and the rate limit it counts against. The
 * scopes the dashboard asks for, the upstream client's budget classes and metric labels, the
 * sandbox's routing and the routes' scope checks are all read from here: no other file spells a
 * scope.
 */

/** The service's OAuth scopes the dashboard uses: one per create, and those of its reads. */
export const SCOPES = [
  "exchange:write_order",
  "exchange:read_order",
  "transfer:write_internal_transfer",
  "transfer:read_transfer",
  "funding:read_profile",
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: unknown): value is Scope => (SCOPES as readonly unknown[]).includes(value);

/**
 * The service's rate limits, per endpoint and caller IP: internal transfers 20/s, the order book
 * 10/s (recent executions count with it), everything else 50/s. The token endpoint has its own.
 */
export type RateClass = "api" | "transfer" | "order-book";

export interface Operation {
  method: "GET" | "POST" | "DELETE";
  /** Below `/v2`, with `{name}` for each path parameter. */
  path: string;
  /** Absent for public market data. */
  scope?: Scope;
  rateClass: RateClass;
}

/** An operation that needs `scope` (kept as its literal, so `OPERATIONS.createOrder.scope` is a Scope). */
const op = <S extends Scope>(method: Operation["method"], path: string, scope: S, rateClass: RateClass = "api") => ({
  method,
  path,
  scope,
  rateClass,
});

/** Public market data: no token needed. */
const market = (path: string, rateClass: RateClass = "api"): Operation => ({ method: "GET", path, rateClass });

export const OPERATIONS = {
  listProfiles: op("GET", "/profiles", "funding:read_profile"),
  listBalances: op("GET", "/profiles/{profile_id}/balances", "funding:read_profile"),
  createOrder: op("POST", "/profiles/{profile_id}/orders", "exchange:write_order"),
  getOrder: op("GET", "/profiles/{profile_id}/orders/{id}", "exchange:read_order"),
  cancelOrder: op("DELETE", "/profiles/{profile_id}/orders/{id}", "exchange:write_order"),
  listOrders: op("GET", "/orders", "exchange:read_order"),
  createInternalTransfer: op("POST", "/transfer/internal", "transfer:write_internal_transfer", "transfer"),
  listTransfers: op("GET", "/transfer/transfers", "transfer:read_transfer"),
  getTransfer: op("GET", "/transfer/transfers/{id}", "transfer:read_transfer"),
  /** The sandbox environment's own: funds a profile for testing. */
  createSandboxDeposit: op("POST", "/sandbox/profiles/{profile_id}/deposit", "funding:read_profile"),
  listMarkets: market("/markets"),
  getOrderBook: market("/markets/{market}/order-book", "order-book"),
  getTicker: market("/markets/{market}/ticker"),
  listRecentExecutions: market("/markets/{market}/recent-executions", "order-book"),
} satisfies Record<string, Operation>;

export type OperationId = keyof typeof OPERATIONS;

/** A template as a pattern: `{name}` becomes a named group that never matches "/". */
export const pathPattern = (template: string, prefix = ""): RegExp =>
  new RegExp(`^${prefix}${template.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}$`);

const MATCHERS = (Object.entries(OPERATIONS) as [OperationId, Operation][]).map(([id, operation]) => ({
  id,
  operation,
  pattern: pathPattern(operation.path),
}));

/** The operation a call is, by method and path below `/v2`; undefined for anything not listed. */
export function operationOf(method: string, path: string): (Operation & { id: OperationId }) | undefined {
  const upper = method.toUpperCase();
  const hit = MATCHERS.find((m) => m.operation.method === upper && m.pattern.test(path));
  return hit && { id: hit.id, ...hit.operation };
}

/** The path's template whatever the method (a bounded set of metric labels); undefined if none. */
export function templateOf(path: string): string | undefined {
  return MATCHERS.find((m) => m.pattern.test(path))?.operation.path;
}

/** The scope a call to the service needs; undefined for public market data (and anything unlisted). */
export const scopeOf = (method: string, path: string): Scope | undefined => operationOf(method, path)?.scope;

/** What a person reads when a feature is off because the dashboard's credentials lack its scope. */
export const lackedScopeDetail = (scope: Scope) => `The service's credentials lack ${scope}`;
