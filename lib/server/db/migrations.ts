import "server-only";
import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from "kysely";

/**
 * Migrations live in code, not in files read at run time, so they travel inside
 * Next's server bundle. Keep them portable: the same list runs on SQLite and PostgreSQL.
 * Never edit a shipped migration; add the next one.
 */
const migrations: Record<string, Migration> = {
  "0001_journal": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("journal")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("ref_id", "text", (c) => c.notNull())
        .addColumn("user_email", "text", (c) => c.notNull())
        .addColumn("user_role", "text", (c) => c.notNull())
        .addColumn("profile_id", "text", (c) => c.notNull())
        .addColumn("to_profile_id", "text")
        .addColumn("request_json", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("completed_at", "text")
        .addColumn("http_status", "integer")
        .addColumn("latency_ms", "integer")
        .addColumn("record_json", "text")
        .addColumn("problem_json", "text")
        .addColumn("result_id", "text")
        // Idempotence rests on this: one journal entry per ref_id and kind, whoever races.
        .addUniqueConstraint("journal_kind_ref_id_unique", ["kind", "ref_id"])
        .execute();
      // Newest-first keyset pagination, and the filters the activity tables offer.
      await db.schema.createIndex("journal_created_idx").on("journal").columns(["created_at", "id"]).execute();
      await db.schema.createIndex("journal_status_idx").on("journal").columns(["status", "created_at"]).execute();
      await db.schema.createIndex("journal_user_idx").on("journal").columns(["user_email", "created_at"]).execute();
      await db.schema.createIndex("journal_profile_idx").on("journal").columns(["profile_id"]).execute();
      await db.schema.createIndex("journal_to_profile_idx").on("journal").columns(["to_profile_id"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("journal").execute();
    },
  },
  "0004_audit": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("audit")
        .addColumn("seq", "integer", (c) => c.primaryKey())
        .addColumn("at", "text", (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("actor_email", "text")
        .addColumn("actor_role", "text")
        .addColumn("ip", "text")
        .addColumn("subject", "text")
        .addColumn("detail_json", "text", (c) => c.notNull())
        .addColumn("prev_hash", "text", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("audit_at_idx").on("audit").columns(["at", "seq"]).execute();
      await db.schema.createIndex("audit_actor_idx").on("audit").columns(["actor_email", "seq"]).execute();
      await db.schema
        .createTable("audit_head")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("audit_head").execute();
      await db.schema.dropTable("audit").execute();
    },
  },
  "0005_approvals": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("policy")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("document_json", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("updated_by", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("approvals")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("ref_id", "text", (c) => c.notNull())
        .addColumn("profile_id", "text", (c) => c.notNull())
        .addColumn("request_json", "text", (c) => c.notNull())
        .addColumn("value_usd", "text", (c) => c.notNull())
        .addColumn("rule_json", "text", (c) => c.notNull())
        .addColumn("approvals_needed", "integer", (c) => c.notNull())
        .addColumn("requested_by", "text", (c) => c.notNull())
        .addColumn("requested_role", "text", (c) => c.notNull())
        .addColumn("requested_name", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("decided_at", "text")
        .addColumn("decided_by", "text")
        .addColumn("reason", "text")
        .addColumn("outcome_json", "text")
        // One request per ref_id and kind, as the journal: an approval is a create that waits.
        .addUniqueConstraint("approvals_kind_ref_id_unique", ["kind", "ref_id"])
        .execute();
      await db.schema.createIndex("approvals_status_idx").on("approvals").columns(["status", "created_at"]).execute();
      await db.schema
        .createTable("approval_votes")
        .addColumn("approval_id", "text", (c) => c.notNull())
        .addColumn("approver_email", "text", (c) => c.notNull())
        .addColumn("approver_role", "text", (c) => c.notNull())
        .addColumn("at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("approval_votes_pk", ["approval_id", "approver_email"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("approval_votes").execute();
      await db.schema.dropTable("approvals").execute();
      await db.schema.dropTable("policy").execute();
    },
  },
  "0006_journal_value": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("journal").addColumn("value_usd", "text").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("journal").dropColumn("value_usd").execute();
    },
  },
  // "You sent this 3 s ago. Send another?" (lib/server/create/repeat-question.ts): request_key finds a recent
  // repeat of the same request; duplicate_of is the earlier ref_id a create repeats when the person
  // was asked, on the entry sent anyway or on the 'declined' entry never sent.
  "0007_journal_duplicates": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("journal").addColumn("request_key", "text").execute();
      await db.schema.alterTable("journal").addColumn("duplicate_of", "text").execute();
      await db.schema
        .createIndex("journal_request_key_idx")
        .on("journal")
        .columns(["request_key", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("journal_request_key_idx").execute();
      await db.schema.alterTable("journal").dropColumn("duplicate_of").execute();
      await db.schema.alterTable("journal").dropColumn("request_key").execute();
    },
  },
  "0008_sessions": {
    async up(db: Kysely<unknown>) {
      // One row per sign-in: the session cookie names it, sign-out or an admin revokes it.
      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_email", "text", (c) => c.notNull())
        .addColumn("user_role", "text", (c) => c.notNull())
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("ip", "text")
        .addColumn("started_at", "text", (c) => c.notNull())
        .addColumn("last_seen_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema.createIndex("sessions_active_idx").on("sessions").columns(["revoked_at", "expires_at"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("sessions").execute();
    },
  },
  // The audit trail is append-only in the database itself (issue 16): an UPDATE or DELETE of an
  // entry is refused, and audit_head only moves forward. Someone holding the tables' owner can
  // still drop the triggers; the keyed checkpoint (audit_checkpoint, and DATA_DIR/audit-checkpoint)
  // is what notices a tail removed that way.
  "0009_audit_append_only": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("audit_checkpoint")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .addColumn("mac", "text", (c) => c.notNull())
        .execute();
      const statements = isPostgres(db) ? POSTGRES_APPEND_ONLY : SQLITE_APPEND_ONLY;
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
    async down(db: Kysely<unknown>) {
      const statements = isPostgres(db) ? POSTGRES_APPEND_ONLY_DOWN : SQLITE_APPEND_ONLY_DOWN;
      for (const statement of statements) await sql.raw(statement).execute(db);
      await db.schema.dropTable("audit_checkpoint").execute();
    },
  },
  // OIDC identities (issue 16): a person is the provider's issuer and `sub`, bound to the email
  // (lower case) it first signed in with; another `sub` of the same issuer cannot take that email.
  "0009_oidc_identities": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("oidc_identities")
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("sub", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("bound_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("oidc_identities_pk", ["issuer", "sub"])
        .addUniqueConstraint("oidc_identities_email_unique", ["issuer", "email"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("oidc_identities").execute();
    },
  },
  // One create path (lib/server/create): approval_id marks a create sent under an approval, so the
  // rolling threshold counts only what a person sent without one; hold_reason says why a create is
  // held when its rule alone does not ("no USD price", a rolling total); price_guard_json keeps the
  // price guard the requester confirmed, for the check again at send.
  "0010_controls": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("journal").addColumn("approval_id", "text").execute();
      await db.schema.alterTable("approvals").addColumn("hold_reason", "text").execute();
      await db.schema.alterTable("approvals").addColumn("price_guard_json", "text").execute();
      // The per-person totals the controls read on every create.
      await db.schema
        .createIndex("journal_user_kind_idx")
        .on("journal")
        .columns(["user_email", "kind", "created_at"])
        .execute();
      await db.schema
        .createIndex("approvals_requester_idx")
        .on("approvals")
        .columns(["requested_by", "status"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("approvals_requester_idx").execute();
      await db.schema.dropIndex("journal_user_kind_idx").execute();
      await db.schema.alterTable("approvals").dropColumn("price_guard_json").execute();
      await db.schema.alterTable("approvals").dropColumn("hold_reason").execute();
      await db.schema.alterTable("journal").dropColumn("approval_id").execute();
    },
  },
  // Batches of internal transfers (issue 27): the batch, held or sending as a whole, and its rows,
  // each sent once as an ordinary transfer under its own ref_id (its journal entry, then).
  "0011_batches": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("batches")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("ref_id", "text", (c) => c.notNull().unique())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("requested_by", "text", (c) => c.notNull())
        .addColumn("requested_name", "text", (c) => c.notNull())
        .addColumn("requested_role", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("value_usd", "text", (c) => c.notNull())
        .addColumn("approval_id", "text")
        .addColumn("rows_key", "text", (c) => c.notNull())
        .addColumn("cancelled_by", "text")
        .execute();
      await db.schema.createIndex("batches_created_idx").on("batches").columns(["created_at", "id"]).execute();
      await db.schema.createIndex("batches_status_idx").on("batches").columns(["status"]).execute();
      await db.schema.createIndex("batches_requester_idx").on("batches").columns(["requested_by", "status"]).execute();
      await db.schema
        .createTable("batch_rows")
        .addColumn("batch_id", "text", (c) => c.notNull())
        .addColumn("row", "integer", (c) => c.notNull())
        .addColumn("from_profile_id", "text", (c) => c.notNull())
        .addColumn("to_profile_id", "text", (c) => c.notNull())
        .addColumn("asset", "text", (c) => c.notNull())
        .addColumn("amount", "text", (c) => c.notNull())
        // A row's ref_id is one transfer's forever: no other row, batch or create may take it.
        .addColumn("ref_id", "text", (c) => c.notNull().unique())
        .addColumn("metadata_json", "text")
        .addColumn("value_usd", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("transfer_id", "text")
        .addColumn("transfer_status", "text")
        .addColumn("problem_json", "text")
        .addPrimaryKeyConstraint("batch_rows_pk", ["batch_id", "row"])
        .execute();
      await db.schema.createIndex("batch_rows_status_idx").on("batch_rows").columns(["batch_id", "status"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("batch_rows").execute();
      await db.schema.dropTable("batches").execute();
    },
  },
  // Rebalancing (issue 27): the balance wanted per profile and asset, and how far below it is still
  // fine, as decimal strings (exact, never a float); replaced as a whole set by ops or an admin.
  "0012_rebalance_targets": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("rebalance_targets")
        .addColumn("profile_id", "text", (c) => c.notNull())
        .addColumn("asset", "text", (c) => c.notNull())
        .addColumn("target", "text", (c) => c.notNull())
        .addColumn("band", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("updated_by", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("rebalance_targets_pk", ["profile_id", "asset"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("rebalance_targets").execute();
    },
  },
  // Personal API tokens (issue 28): a person's token for scripts, narrowed by its scopes. Only the
  // secret's SHA-256 is kept (secret_hash, what a request is looked up by); the secret never is.
  "0013_api_tokens": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("api_tokens")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("owner_email", "text", (c) => c.notNull())
        .addColumn("owner_name", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("scopes_json", "text", (c) => c.notNull())
        .addColumn("secret_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("last_used_at", "text")
        .addColumn("revoked_at", "text")
        .addColumn("revoked_by", "text")
        .execute();
      await db.schema
        .createIndex("api_tokens_owner_idx")
        .on("api_tokens")
        .columns(["owner_email", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("api_tokens").execute();
    },
  },
  // TWAP parent orders (issue 29): the parent, weighed whole, and its schedule of children, each
  // a LIMIT IOC sent once under `<parent ref_id>-<n>`. The journal keeps each order's arrival mid
  // (execution quality) and, for a child, its parent: a child is weighed with its parent, never again.
  "0014_parent_orders": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("parent_orders")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("ref_id", "text", (c) => c.notNull().unique())
        .addColumn("profile_id", "text", (c) => c.notNull())
        .addColumn("market", "text", (c) => c.notNull())
        .addColumn("side", "text", (c) => c.notNull())
        .addColumn("base_amount", "text", (c) => c.notNull())
        .addColumn("limit_price", "text", (c) => c.notNull())
        .addColumn("duration_seconds", "integer", (c) => c.notNull())
        .addColumn("slices", "integer", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("requested_by", "text", (c) => c.notNull())
        .addColumn("requested_name", "text", (c) => c.notNull())
        .addColumn("requested_role", "text", (c) => c.notNull())
        .addColumn("request_json", "text", (c) => c.notNull())
        .addColumn("value_usd", "text", (c) => c.notNull())
        .addColumn("approval_id", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("started_at", "text")
        .addColumn("ends_at", "text")
        .addColumn("paused_at", "text")
        .addColumn("arrival_mid", "text")
        .addColumn("filled_base", "text", (c) => c.notNull())
        .addColumn("filled_notional", "text", (c) => c.notNull())
        .addColumn("cancelled_by", "text")
        .execute();
      await db.schema
        .createIndex("parent_orders_created_idx")
        .on("parent_orders")
        .columns(["created_at", "id"])
        .execute();
      await db.schema.createIndex("parent_orders_status_idx").on("parent_orders").columns(["status"]).execute();
      await db.schema
        .createIndex("parent_orders_requester_idx")
        .on("parent_orders")
        .columns(["requested_by", "status"])
        .execute();
      await db.schema
        .createTable("parent_children")
        .addColumn("parent_id", "text", (c) => c.notNull())
        .addColumn("n", "integer", (c) => c.notNull())
        // A child's ref_id is one order's forever: no other child, nor any create, may take it.
        .addColumn("ref_id", "text", (c) => c.notNull().unique())
        .addColumn("scheduled_at", "text", (c) => c.notNull())
        .addColumn("sent_at", "text")
        .addColumn("base_amount", "text")
        .addColumn("price", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("order_id", "text")
        .addColumn("amount_filled", "text", (c) => c.notNull())
        .addColumn("average_price", "text", (c) => c.notNull())
        .addColumn("problem_json", "text")
        .addPrimaryKeyConstraint("parent_children_pk", ["parent_id", "n"])
        .execute();
      await db.schema.alterTable("journal").addColumn("arrival_mid", "text").execute();
      await db.schema.alterTable("journal").addColumn("parent_order_id", "text").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("journal").dropColumn("parent_order_id").execute();
      await db.schema.alterTable("journal").dropColumn("arrival_mid").execute();
      await db.schema.dropTable("parent_children").execute();
      await db.schema.dropTable("parent_orders").execute();
    },
  },
  "0015_events_out": {
    async up(db: Kysely<unknown>) {
      // The outbox: each event written in the transaction of what it reports (lib/server/events/outbox.ts).
      await db.schema
        .createTable("outbox_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("at", "text", (c) => c.notNull())
        .addColumn("data_json", "text", (c) => c.notNull())
        .addColumn("fanned_at", "text")
        .execute();
      await db.schema.createIndex("outbox_events_fan_idx").on("outbox_events").columns(["fanned_at", "at"]).execute();
      await db.schema
        .createTable("webhooks")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("events_json", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("secret_sealed", "text", (c) => c.notNull())
        .addColumn("enabled", "integer", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("failing_since", "text")
        .addColumn("disabled_at", "text")
        .execute();
      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("webhook_id", "text", (c) => c.notNull())
        .addColumn("event_id", "text", (c) => c.notNull())
        .addColumn("event_type", "text", (c) => c.notNull())
        .addColumn("body_json", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("last_status_code", "integer")
        .addColumn("last_error", "text")
        .addColumn("response_body", "text")
        .addColumn("next_attempt_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("delivered_at", "text")
        // One delivery per event and webhook, whoever fans the event out.
        .addUniqueConstraint("webhook_deliveries_event_unique", ["webhook_id", "event_id"])
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_due_idx")
        .on("webhook_deliveries")
        .columns(["status", "next_attempt_at"])
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_webhook_idx")
        .on("webhook_deliveries")
        .columns(["webhook_id", "created_at"])
        .execute();
      await db.schema
        .createTable("emails")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("event_id", "text", (c) => c.notNull())
        .addColumn("to_email", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("text_body", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("last_error", "text")
        .addColumn("next_attempt_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("sent_at", "text")
        .addUniqueConstraint("emails_event_unique", ["event_id", "to_email"])
        .execute();
      await db.schema.createIndex("emails_due_idx").on("emails").columns(["status", "next_attempt_at"]).execute();
      await db.schema
        .createTable("mail_preferences")
        .addColumn("email", "text", (c) => c.primaryKey())
        .addColumn("approval_emails", "integer", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      // The status of a created order or transfer the record follower last reported (order.filled, ...).
      await db.schema.alterTable("journal").addColumn("followed_status", "text").execute();
      await db.schema.alterTable("journal").addColumn("followed_at", "text").execute();
      await db.schema
        .createIndex("journal_followed_idx")
        .on("journal")
        .columns(["followed_status", "followed_at"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("journal").dropColumn("followed_at").execute();
      await db.schema.alterTable("journal").dropColumn("followed_status").execute();
      for (const table of ["mail_preferences", "emails", "webhook_deliveries", "webhooks", "outbox_events"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
};

/** The tables no entry leaves: the trail itself, its head and its keyed checkpoint. */
const GUARDED = ["audit", "audit_head", "audit_checkpoint"] as const;
const REFUSAL = "the audit trail is append-only";

const SQLITE_APPEND_ONLY = [
  `CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, '${REFUSAL}: UPDATE refused'); END`,
  ...GUARDED.map(
    (t) =>
      `CREATE TRIGGER ${t}_no_delete BEFORE DELETE ON ${t} BEGIN SELECT RAISE(ABORT, '${REFUSAL}: DELETE refused'); END`,
  ),
  ...GUARDED.slice(1).map(
    (t) =>
      `CREATE TRIGGER ${t}_forward BEFORE UPDATE ON ${t} WHEN NEW.seq <= OLD.seq ` +
      `BEGIN SELECT RAISE(ABORT, '${REFUSAL}: ${t} only moves forward'); END`,
  ),
];
const SQLITE_APPEND_ONLY_DOWN = [
  "DROP TRIGGER IF EXISTS audit_no_update",
  ...GUARDED.map((t) => `DROP TRIGGER IF EXISTS ${t}_no_delete`),
  ...GUARDED.slice(1).map((t) => `DROP TRIGGER IF EXISTS ${t}_forward`),
];

const POSTGRES_APPEND_ONLY = [
  `CREATE OR REPLACE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'UPDATE' AND TG_TABLE_NAME <> 'audit' THEN
       IF NEW.seq > OLD.seq THEN RETURN NEW; END IF;
     END IF;
     RAISE EXCEPTION '${REFUSAL}: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
   END $$`,
  ...GUARDED.flatMap((t) => [
    `CREATE TRIGGER ${t}_append_only BEFORE UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION audit_append_only()`,
    `CREATE TRIGGER ${t}_no_truncate BEFORE TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()`,
  ]),
];
const POSTGRES_APPEND_ONLY_DOWN = [
  ...GUARDED.flatMap((t) => [
    `DROP TRIGGER IF EXISTS ${t}_append_only ON ${t}`,
    `DROP TRIGGER IF EXISTS ${t}_no_truncate ON ${t}`,
  ]),
  "DROP FUNCTION IF EXISTS audit_append_only()",
];

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema to the latest migration; a no-op when it is already there. Throws on failure. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`Journal database migration ${failed} failed: ${error instanceof Error ? error.message : error}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** The migrations this build knows, in the order they run: a database migrated past them came from a newer build. */
export const knownMigrations = (): string[] => Object.keys(migrations).sort();

/**
 * The migrations of this build the database has not run (readiness): one read of Kysely's own
 * table, and so also the proof that the database answers. Throws when it does not.
 */
export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  const rows = await (db as Kysely<{ kysely_migration: { name: string } }>)
    .selectFrom("kysely_migration")
    .select("name")
    .execute();
  const done = new Set(rows.map((r) => r.name));
  return Object.keys(migrations).filter((name) => !done.has(name));
}
