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
