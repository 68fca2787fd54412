import { ACTIONS, can, type Action, type Role } from "./roles";

/**
 * What a personal API token (issue 28) may be used for: its scopes, each narrowing the owner's
 * role, and the one table that says which scope each action of lib/shared/roles.ts needs. An
 * action no scope opens is never done by a token, whatever the owner's role: four eyes, the
 * policy, the targets, sessions and tokens stay with a person in a browser.
 */
export const TOKEN_SCOPES = ["read", "trade", "transfer", "batch"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** `{ read }`: reading is opened by that scope, a change never. */
type Needs = TokenScope | null | { read: TokenScope };

const SCOPE_NEEDED = {
  read: "read",
  "orders:create": "trade",
  "orders:cancel": "trade",
  "transfers:create": "transfer",
  "batches:create": "batch",
  // GET targets and the plan read; the PUT replaces the targets: never by a token.
  "rebalance:targets": { read: "read" },
  approve: null,
  "approvals:withdraw": null,
  "policies:edit": null,
  "audit:verify": null,
  // The admin's reading of the audit trail.
  "audit:read": "read",
  // A scraper sends METRICS_TOKEN (lib/server/ops/metrics-route.ts), never a personal token.
  "metrics:read": null,
  "sessions:manage": null,
  tokens: null,
  // A webhook's secret and where the desk's events go are a person's decision in a session.
  "webhooks:manage": null,
  notifications: null,
} as const satisfies Record<Action, Needs>;

const READS = new Set(["GET", "HEAD"]);

/** The scope a token needs for `action` done by `method`, or null: no token ever does it. */
export function scopeNeeded(action: Action, method: string): TokenScope | null {
  const needs: Needs = SCOPE_NEEDED[action];
  if (needs === null || typeof needs === "string") return needs;
  return READS.has(method.toUpperCase()) ? needs.read : null;
}

/** Whether `role` can do anything `scope` opens: a token asking for it would be of no use to them. */
export const scopeUsableBy = (role: Role, scope: TokenScope): boolean =>
  ACTIONS.some((action) => can(role, action) && opens(action, scope));

function opens(action: Action, scope: TokenScope): boolean {
  const needs: Needs = SCOPE_NEEDED[action];
  return needs === scope || (typeof needs === "object" && needs !== null && needs.read === scope);
}

export const isTokenScope = (value: unknown): value is TokenScope =>
  typeof value === "string" && (TOKEN_SCOPES as readonly string[]).includes(value);
