/**
 * Who may do what, in one table. The server enforces it in every route handler
 * (lib/server/http/route.ts); the pages use it only to hide what a role cannot use.
 */
const ROLES = ["viewer", "trader", "ops", "approver", "admin"] as const;
export type Role = (typeof ROLES)[number];

const PERMISSIONS = {
  read: ["viewer", "trader", "ops", "approver", "admin"],
  "orders:create": ["trader", "admin"],
  "orders:cancel": ["trader", "admin"],
  "transfers:create": ["ops", "admin"],
  // A batch of internal transfers (issue 27): weighed, held and sent as a whole.
  "batches:create": ["ops", "admin"],
  // Rebalancing (issue 27): reading and replacing the targets, and the plan that meets them.
  "rebalance:targets": ["ops", "admin"],
  // Four eyes: nobody approves their own request (checked per request, lib/server/approvals/decisions.ts).
  approve: ["approver", "admin"],
  // Only the requester may withdraw (checked per request); these roles can ask for approval at all.
  "approvals:withdraw": ["trader", "ops", "admin"],
  "policies:edit": ["admin"],
  "audit:verify": ["admin"],
  "metrics:read": ["admin"],
  "audit:read": ["admin"],
  // Seeing who is signed in, from where, and ending their sessions.
  "sessions:manage": ["admin"],
  // One's own personal API tokens (issue 28): anyone signed in; only with a session (lib/shared/token-scopes.ts).
  tokens: ["viewer", "trader", "ops", "approver", "admin"],
  // Webhooks (issue 30): registering receivers of the desk's events, and their deliveries; only with a session.
  "webhooks:manage": ["admin"],
  // One's own email notifications (issue 30): anyone signed in; only with a session.
  notifications: ["viewer", "trader", "ops", "approver", "admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

/** Every action, in the table's order. */
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

export const can = (role: Role | undefined, action: Action): boolean =>
  role !== undefined && (PERMISSIONS[action] as readonly Role[]).includes(role);

/** The roles that may do `action`, in the table's order. */
export const rolesThatCan = (action: Action): Role[] => ROLES.filter((role) => can(role, action));

export const isRole = (value: unknown): value is Role =>
  typeof value === "string" && (ROLES as readonly string[]).includes(value);
