/**
 * The service's OAuth scopes: one per create (`exchange:write_order`,
 * `transfer:write_internal_transfer`) and those of the reads the dashboard uses.
 */
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
 * The scope each of the service's operations the dashboard calls needs (the published
 * reference's security requirements), by method and path below `/v2`; market data needs none.
 */
const OPERATION_SCOPES: [method: string, path: RegExp, scope: Scope][] = [
  ["GET", /^\/profiles(\/[^/]+(\/balances(\/[^/]+)?)?)?$/, "funding:read_profile"],
  ["POST", /^\/sandbox\/profiles\/[^/]+\/deposit$/, "funding:read_profile"],
  ["GET", /^\/(orders|executions)$/, "exchange:read_order"],
  ["GET", /^\/profiles\/[^/]+\/(orders(\/[^/]+)?|executions)$/, "exchange:read_order"],
  ["POST", /^\/profiles\/[^/]+\/orders$/, "exchange:write_order"],
  ["DELETE", /^\/profiles\/[^/]+\/orders\/[^/]+$/, "exchange:write_order"],
  ["POST", /^\/transfer\/internal$/, "transfer:write_internal_transfer"],
  ["GET", /^\/transfer\/transfers(\/[^/]+)?$/, "transfer:read_transfer"],
];

/** The scope a call to the service needs; undefined for public market data (and anything unlisted). */
export function scopeOf(method: string, path: string): Scope | undefined {
  const upper = method.toUpperCase();
  return OPERATION_SCOPES.find(([m, pattern]) => m === upper && pattern.test(path))?.[2];
}

/** What a person reads when a feature is off because the dashboard's credentials lack its scope. */
export const lackedScopeDetail = (scope: Scope) => `The service's credentials lack ${scope}`;
