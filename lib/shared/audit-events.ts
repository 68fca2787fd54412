/**
 * The audit trail's events (lib/server/audit-trail.ts writes them), shared with the Activity page
 * that filters on them. Each belongs to a family named by its first part ("approval" holds
 * approval.requested, .approved, ...); a filter on the family takes every event in it.
 */
export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in.failed",
  "sign-out",
  "session.revoked",
  "access.denied",
  "create.requested",
  "create.succeeded",
  "create.failed",
  "create.duplicate-confirmed",
  "create.duplicate-declined",
  "create.declined",
  "create.refused",
  "approval.requested",
  "approval.approved",
  "approval.rejected",
  "approval.withdrawn",
  "approval.expired",
  "approval.self_refused",
  "approval.send_refused",
  "cancel.requested",
  "cancel.succeeded",
  "cancel.failed",
  "policy.changed",
  "limit.refused",
  "price-guard.confirmed",
  "price_guard.confirm_asked",
  "export.csv",
  "batch.requested",
  "batch.row_sent",
  "batch.row_failed",
  "batch.completed",
  "batch.cancelled",
  "parent_order.requested",
  "parent_order.paused",
  "parent_order.resumed",
  "parent_order.cancelled",
  "parent_order.completed",
  "rebalance.targets_changed",
  "token.created",
  "token.revoked",
  "webhook.created",
  "webhook.deleted",
  "webhook.test_sent",
  "webhook.delivery_retried",
  "webhook.disabled",
  "notifications.changed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Each event in an auditor's words. */
export const AUDIT_ACTION_WORDS: Record<AuditAction, string> = {
  "sign-in": "Signed in",
  "sign-in.failed": "Sign-in failed",
  "sign-out": "Signed out",
  "session.revoked": "Session ended by an admin",
  "access.denied": "Refused: no session, another origin or the role",
  "create.requested": "Create requested",
  "create.succeeded": "Create succeeded",
  "create.failed": "Create failed",
  "create.duplicate-confirmed": "Retry matched the original",
  "create.duplicate-declined": "Retry refused: different request",
  "create.declined": "Not sent: repeat declined",
  "create.refused": "Refused by the controls",
  "approval.requested": "Approval requested",
  "approval.approved": "Approved",
  "approval.rejected": "Rejected",
  "approval.withdrawn": "Withdrawn",
  "approval.expired": "Expired unapproved",
  "approval.self_refused": "Refused: own request",
  "approval.send_refused": "Approved, refused at send",
  "cancel.requested": "Cancel requested",
  "cancel.succeeded": "Cancel accepted",
  "cancel.failed": "Cancel failed",
  "policy.changed": "Policy changed",
  "limit.refused": "Refused by a limit",
  "price-guard.confirmed": "Price guard confirmed",
  "price_guard.confirm_asked": "Price guard asked to confirm",
  "export.csv": "CSV exported",
  "batch.requested": "Batch requested",
  "batch.row_sent": "Batch row sent",
  "batch.row_failed": "Batch row failed",
  "batch.completed": "Batch completed",
  "batch.cancelled": "Batch cancelled",
  "parent_order.requested": "Parent order requested",
  "parent_order.paused": "Parent order paused",
  "parent_order.resumed": "Parent order resumed",
  "parent_order.cancelled": "Parent order cancelled",
  "parent_order.completed": "Parent order completed",
  "rebalance.targets_changed": "Rebalancing targets changed",
  "token.created": "API token created",
  "token.revoked": "API token revoked",
  "webhook.created": "Webhook added",
  "webhook.deleted": "Webhook removed",
  "webhook.test_sent": "Webhook test event sent",
  "webhook.delivery_retried": "Webhook delivery retried",
  "webhook.disabled": "Webhook turned off after failing",
  "notifications.changed": "Email notifications changed",
};

/** The families, in the words of the Activity page's Event filter. */
export const AUDIT_FAMILIES = {
  "sign-in": "Sign-ins",
  "sign-out": "Sign-outs",
  access: "Access refusals",
  create: "Creates",
  approval: "Approvals",
  cancel: "Cancels",
  policy: "Policy changes",
  limit: "Limit refusals",
  "price-guard": "Price-guard confirmations",
  price_guard: "Price-guard questions",
  export: "CSV exports",
  batch: "Batches",
  parent_order: "Parent orders",
  rebalance: "Rebalancing targets",
  token: "API tokens",
  webhook: "Webhooks",
  notifications: "Email notifications",
} as const satisfies Record<string, string>;

export type AuditFamily = keyof typeof AUDIT_FAMILIES;

/** An event filter: a family or one exact event. */
export const AUDIT_EVENT_FILTERS: readonly string[] = [...Object.keys(AUDIT_FAMILIES), ...AUDIT_ACTIONS];

/** One entry as GET /api/audit lists it. */
export interface AuditEntryView {
  seq: number;
  at: string;
  action: AuditAction;
  actor_email: string | null;
  actor_role: string | null;
  ip: string | null;
  subject: string | null;
  detail: Record<string, unknown>;
  hash: string;
}

export const AUDIT_CSV_HEADER = ["seq", "at", "event", "user", "role", "ip", "subject", "detail", "hash"];

/** An entry as a CSV row: times as stored (ISO 8601 UTC), the detail as its JSON. */
export const auditCsvRow = (e: AuditEntryView): string[] => [
  String(e.seq),
  e.at,
  e.action,
  e.actor_email ?? "",
  e.actor_role ?? "",
  e.ip ?? "",
  e.subject ?? "",
  JSON.stringify(e.detail),
  e.hash,
];
