import "server-only";

/**
 * The journal database's tables as Kysely sees them. Portable across SQLite and
 * PostgreSQL: text ids, ISO 8601 text timestamps, JSON kept as text.
 */

export interface JournalTable {
  id: string;
  /** 'order' | 'transfer' | 'cancel' */
  kind: string;
  ref_id: string;
  user_email: string;
  user_role: string;
  /** The order's profile, or the transfer's sending profile. */
  profile_id: string;
  /** The transfer's receiving profile; null for orders. */
  to_profile_id: string | null;
  request_json: string;
  /** 'pending' | 'succeeded' | 'failed' | 'declined' (not sent: the person answered "don't send") */
  status: string;
  created_at: string;
  completed_at: string | null;
  http_status: number | null;
  latency_ms: number | null;
  /** The service's order or transfer record, on success. */
  record_json: string | null;
  /** The problem returned to the user, on failure. */
  problem_json: string | null;
  /** The resulting order or transfer id. */
  result_id: string | null;
  /** The request apart from its ref_id, hashed (request-key.ts); null on entries older than migration 0007. */
  request_key: string | null;
  /** The ref_id of the earlier create this one repeats, when the person was asked (migration 0007). */
  duplicate_of: string | null;
  /** What the create was worth in USD when it was checked against the controls; null before 0006 or unpriced. */
  value_usd: string | null;
  /** The approval it was sent under; null when it needed none (migration 0010). */
  approval_id: string | null;
  /** An order's market mid when the dashboard received it, for its execution quality (migration 0014). */
  arrival_mid: string | null;
  /** A parent order's child: the parent it was weighed with (migration 0014). */
  parent_order_id: string | null;
  /** The record's status the record follower last reported as an event (migration 0015). */
  followed_status: string | null;
  /** When the record follower last read the record. */
  followed_at: string | null;
}

/** The audit trail: append-only, each entry chained to the one before by a keyed hash. */
export interface AuditTable {
  /** 1, 2, 3, ...: the order of the chain; unique, so two writers cannot both add entry N. */
  seq: number;
  at: string;
  /** What happened, e.g. "create.requested", "approval.approved", "sign-in.failed". */
  action: string;
  actor_email: string | null;
  actor_role: string | null;
  ip: string | null;
  /** What it is about: a ref_id, an approval id, an order id, a policy. */
  subject: string | null;
  detail_json: string;
  prev_hash: string;
  hash: string;
}

/** The last entry of the chain, kept apart so that removing the newest entries shows too. */
export interface AuditHeadTable {
  id: number;
  seq: number;
  hash: string;
}

/** The newest entry an instance wrote or verified, keyed with the audit key (lib/server/audit-trail.ts). */
export interface AuditCheckpointTable {
  id: number;
  seq: number;
  hash: string;
  mac: string;
}

/** An OIDC person: the provider's issuer and `sub`, bound to the email they first signed in with. */
export interface OidcIdentityTable {
  issuer: string;
  sub: string;
  email: string;
  bound_at: string;
}

/** The desk's policy (lib/shared/policy.ts), one row; every change is audited with its before and after. */
export interface PolicyTable {
  id: number;
  document_json: string;
  updated_at: string;
  updated_by: string;
}

/** A create held for four eyes: sent, with its ref_id, only once enough approvers agree. */
export interface ApprovalTable {
  id: string;
  /** 'order' | 'transfer' | 'policy' */
  kind: string;
  /** The create's ref_id; a policy change's own id. */
  ref_id: string;
  /** The order's profile (from its path); the transfer's sending profile; "" for a policy change. */
  profile_id: string;
  /** The validated request, ref_id included, exactly as it will be sent; a policy change's before and after. */
  request_json: string;
  /** The value in USD when asked; "" when no market prices it, and for a policy change. */
  value_usd: string;
  /** The rule in force when it was asked for, frozen with it. */
  rule_json: string;
  approvals_needed: number;
  requested_by: string;
  requested_role: string;
  requested_name: string;
  created_at: string;
  expires_at: string;
  /** 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'WITHDRAWN' */
  status: string;
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
  /** What sending it answered (status and body), once sent; or the refusal of the check again at send. */
  outcome_json: string | null;
  /** Why it is held when its rule alone does not say (migration 0010). */
  hold_reason: string | null;
  /** The price guard the requester confirmed when asking, as JSON (migration 0010). */
  price_guard_json: string | null;
}

/** One approver's approval of one request; one each. */
export interface ApprovalVoteTable {
  approval_id: string;
  approver_email: string;
  approver_role: string;
  at: string;
}

/** A signed-in session (lib/server/auth/sessions.ts); ISO 8601 times. */
export interface SessionTable {
  id: string;
  user_email: string;
  user_role: string;
  provider: string;
  ip: string | null;
  started_at: string;
  last_seen_at: string;
  /** The absolute end: renewal never goes past it. */
  expires_at: string;
  revoked_at: string | null;
}

/** A batch of internal transfers (migration 0011): held or sent as a whole, row by row. */
export interface BatchTable {
  id: string;
  ref_id: string;
  /** 'AWAITING_APPROVAL' | 'SENDING' | 'COMPLETED' | 'CANCELLED' | 'REJECTED' | 'EXPIRED' */
  status: string;
  requested_by: string;
  requested_name: string;
  requested_role: string;
  created_at: string;
  updated_at: string;
  /** The rows' value in USD when asked: what the controls weighed. */
  value_usd: string;
  /** The approval it waited for, when held. */
  approval_id: string | null;
  /** The rows' key without their ref_ids, for the repeat question (the same rows under another ref_id). */
  rows_key: string;
  cancelled_by: string | null;
}

/** One row of a batch: one internal transfer, sent once under its own ref_id. */
export interface BatchRowTable {
  batch_id: string;
  /** The file's row number: 1 is the first after the header. */
  row: number;
  from_profile_id: string;
  to_profile_id: string;
  asset: string;
  amount: string;
  ref_id: string;
  metadata_json: string | null;
  value_usd: string;
  /** 'WAITING' | 'SENT' | 'FAILED' | 'SKIPPED' */
  status: string;
  transfer_id: string | null;
  transfer_status: string | null;
  problem_json: string | null;
}

/** A rebalancing target (migration 0012): one per profile and asset, the set replaced as a whole. */
export interface RebalanceTargetTable {
  profile_id: string;
  asset: string;
  /** The balance wanted, a decimal string (0 or more). */
  target: string;
  /** How far below the target is still fine, a decimal string (0 or more). */
  band: string;
  updated_at: string;
  /** The email of who set it. */
  updated_by: string;
}

/** A personal API token (migration 0013); ISO 8601 times. The secret itself is never stored. */
export interface ApiTokenTable {
  id: string;
  owner_email: string;
  /** The owner's name at creation: what the journal and approvals show of a token's requester. */
  owner_name: string;
  name: string;
  /** The scopes, a JSON array of lib/shared/token-scopes.ts's. */
  scopes_json: string;
  /** The secret's SHA-256, hex. */
  secret_hash: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The email of who revoked it: the owner, or an admin. */
  revoked_by: string | null;
}

/** A TWAP parent order (migration 0014): weighed whole, worked in slices by the leader. */
export interface ParentOrderTable {
  id: string;
  ref_id: string;
  profile_id: string;
  market: string;
  side: string;
  base_amount: string;
  limit_price: string;
  duration_seconds: number;
  slices: number;
  /** lib/shared/parent-order.ts's PARENT_ORDER_STATUSES */
  status: string;
  requested_by: string;
  requested_name: string;
  requested_role: string;
  /** The request as asked, ref_id included: a replay is compared with it. */
  request_json: string;
  /** What the controls weighed it at, in USD. */
  value_usd: string;
  approval_id: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ends_at: string | null;
  /** Set while PAUSED: a resume moves what is still scheduled on by the time paused. */
  paused_at: string | null;
  /** The market's mid when it started. */
  arrival_mid: string | null;
  /** The children's fills added up, and their notional: written as each child settles. */
  filled_base: string;
  filled_notional: string;
  cancelled_by: string | null;
}

/** One slice of a parent: one LIMIT IOC order, sent once under its own ref_id. */
export interface ParentChildTable {
  parent_id: string;
  n: number;
  ref_id: string;
  scheduled_at: string;
  sent_at: string | null;
  base_amount: string | null;
  price: string | null;
  /** lib/shared/parent-order.ts's ParentChildStatus */
  status: string;
  order_id: string | null;
  amount_filled: string;
  average_price: string;
  problem_json: string | null;
}

/** An event waiting to be fanned out to webhooks and emails (migration 0015): the outbox. */
export interface OutboxEventTable {
  id: string;
  /** lib/shared/webhooks.ts's EVENT_TYPES, or the test event. */
  type: string;
  /** When it happened: the body's `timestamp`. */
  at: string;
  /** The body's `data`: the records in the service's own shapes. */
  data_json: string;
  /** When the leader made its deliveries and emails; null until then. */
  fanned_at: string | null;
}

/** A receiver of events (migration 0015). */
export interface WebhookTable {
  id: string;
  url: string;
  /** A JSON array of event types, or ["*"]. */
  events_json: string;
  description: string;
  /** The signing secret, sealed with a key derived from the auth secret (lib/server/events/secrets.ts). */
  secret_sealed: string;
  /** 1 or 0 */
  enabled: number;
  created_at: string;
  created_by: string;
  failing_since: string | null;
  disabled_at: string | null;
}

/** One event for one webhook; its id is the `webhook-id` of every attempt. */
export interface WebhookDeliveryTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact bytes signed and sent. */
  body_json: string;
  /** 'PENDING' | 'DELIVERED' | 'FAILED' */
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** At most 1 kB of the receiver's last answer. */
  response_body: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** One email for one person about one event. */
export interface EmailTable {
  id: string;
  event_id: string;
  to_email: string;
  subject: string;
  text_body: string;
  /** 'PENDING' | 'SENT' | 'FAILED' */
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  sent_at: string | null;
}

/** A person's choice about the emails they get; no row: every email. */
export interface MailPreferenceTable {
  email: string;
  /** 1: emails about requests waiting for them and decisions on theirs; 0: none. */
  approval_emails: number;
  updated_at: string;
}

export interface Database {
  outbox_events: OutboxEventTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  emails: EmailTable;
  mail_preferences: MailPreferenceTable;
  parent_orders: ParentOrderTable;
  parent_children: ParentChildTable;
  api_tokens: ApiTokenTable;
  batches: BatchTable;
  batch_rows: BatchRowTable;
  rebalance_targets: RebalanceTargetTable;
  sessions: SessionTable;
  journal: JournalTable;
  policy: PolicyTable;
  approvals: ApprovalTable;
  approval_votes: ApprovalVoteTable;
  audit: AuditTable;
  audit_head: AuditHeadTable;
  audit_checkpoint: AuditCheckpointTable;
  oidc_identities: OidcIdentityTable;
}
