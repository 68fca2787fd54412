import "server-only";

/**
 * The journal database's tables as Kysely sees them. Portable across SQLite and
 * PostgreSQL: text ids, ISO 8601 text timestamps, JSON kept as text.
 */

export interface JournalTable {
  id: string;
  /** 'order' | 'transfer' */
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
  /** The request apart from its ref_id, hashed (request-key.ts); null on entries older than migration 0002. */
  request_key: string | null;
  /** The ref_id of the earlier create this one repeats, when the person was asked (migration 0002). */
  duplicate_of: string | null;
}

export interface Database {
  journal: JournalTable;
}
