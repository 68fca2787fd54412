import * as z from "zod/mini";
import type { ActivityEntry } from "@/lib/shared/activity-outcome";
import type { ApiTokenView } from "@/lib/shared/api-tokens";
import { APPROVAL_STATUSES, type Approval, type ApprovalKind, type Held } from "@/lib/shared/approval";
import { AUDIT_ACTIONS, type AuditEntryView } from "@/lib/shared/audit-events";
import { BATCH_ROW_STATUSES, BATCH_STATUSES, type Batch, type BatchRowView } from "@/lib/shared/batch";
import type { HeldRequest } from "@/lib/shared/held-requests";
import { approvalRuleSchema, type ApprovalRule, type Policy } from "@/lib/shared/policy";
import type { RebalanceTarget } from "@/lib/shared/rebalance-plan";
import { TOKEN_SCOPES } from "@/lib/shared/token-scopes";
import type { createApiToken } from "@/lib/server/auth/api-tokens";
import type { listOrders } from "@/lib/server/lists/orders-list";
import type { listTransfers } from "@/lib/server/lists/transfers-list";
import { orderRecordSchema, transferRecordSchema } from "@/lib/spec";
import { named } from "./components";
import { orderRequest, policy, problem, targets, transferRequest } from "./schemas";

/**
 * What the routes answer, as the document names it: the service's records (lib/spec's own
 * schemas), and the dashboard's shapes, whose TypeScript types live in lib/shared. Each of those
 * is held to its type below: a field the type gains (or loses) breaks `tsc` until it is here too.
 * Money and prices are strings, as everywhere in the API.
 */

const opt = z.optional;
const text = z.string();
const nullableText = z.nullable(z.string());

// The service's records, as lib/spec reads them (unknown fields pass).
export const order = named("Order", orderRecordSchema);
export const transfer = named("Transfer", transferRecordSchema);

/** A list of the service's as its relay passes it on: the last page has no next_page_cursor. */
const servicePage = (items: z.ZodMiniType) => z.looseObject({ items: z.array(items), next_page_cursor: opt(text) });
export const serviceOrders = named("ServiceOrdersPage", servicePage(orderRecordSchema));
export const serviceTransfers = named("ServiceTransfersPage", servicePage(transferRecordSchema));

const approvalRule = named("ApprovalRule", approvalRuleSchema).schema;
const policyRule = z.strictObject({
  kind: z.literal("policy"),
  approvals_needed: z.literal(1),
  open_minutes: z.int(),
});
const approvalKind = z.enum(["order", "transfer", "batch", "policy"]);

export const approval = named(
  "Approval",
  z.strictObject({
    id: text,
    status: z.enum(APPROVAL_STATUSES),
    kind: approvalKind,
    /** The create's request (an order's profile beside it), a batch's summary, or a policy's before and after. */
    request: z.record(z.string(), z.unknown()),
    profile_id: text,
    value_usd: nullableText,
    rule: z.union([approvalRule, policyRule]),
    hold_reason: nullableText,
    requested_by: text,
    requested_name: text,
    requested_role: text,
    created_at: text,
    expires_at: text,
    approvals_needed: z.int(),
    approvals: z.array(z.strictObject({ by: text, role: text, at: text })),
    decided_at: nullableText,
    decided_by: nullableText,
    reason: nullableText,
    outcome: z.nullable(z.strictObject({ status: z.int(), body: z.unknown(), sent: opt(z.boolean()) })),
  }),
);
const approvalSchema = approval.schema;

/** A create (or a loosening policy change) held for approval: 202. */
export const held = named("Held", z.strictObject({ approval: approvalSchema }));
export const approvalAnswer = named("ApprovalAnswer", z.strictObject({ approval: approvalSchema }));
export const approvals = named("Approvals", z.strictObject({ items: z.array(approvalSchema) }));

const batchRow = z.strictObject({
  row: z.int(),
  from_profile_id: text,
  to_profile_id: text,
  asset: text,
  amount: text,
  ref_id: text,
  status: z.enum(BATCH_ROW_STATUSES),
  transfer_id: opt(text),
  transfer_status: opt(text),
  /** Why the row failed: the service's problem, or the controls'. */
  problem: opt(problem.schema),
});
const counts = z.strictObject({ waiting: z.int(), sent: z.int(), failed: z.int(), skipped: z.int() });
const batchSchema = named(
  "Batch",
  z.strictObject({
    id: text,
    ref_id: text,
    status: z.enum(BATCH_STATUSES),
    requested_by: text,
    created_at: text,
    approval_id: nullableText,
    counts,
    /** Per asset: the rows' sum, and its worth in USD ("" when no market prices it). */
    totals: z.array(z.strictObject({ asset: text, amount: text, value_usd: text })),
    rows: z.array(batchRow),
  }),
).schema;

export const batchAnswer = named("BatchAnswer", z.strictObject({ batch: batchSchema }));
/** A batch held for one approval of the whole: 202. */
export const heldBatch = named("HeldBatch", z.strictObject({ approval: approvalSchema, batch: batchSchema }));
export const batches = named("Batches", z.strictObject({ items: z.array(batchSchema) }));

/** A held create as the tables show it on top of the service's records. */
const heldRequest = (request: z.ZodMiniType) =>
  z.strictObject({
    approval_id: text,
    ref_id: text,
    profile_id: text,
    requested_by: text,
    requested_name: text,
    requested_role: text,
    requested_at: text,
    expires_at: text,
    value_usd: nullableText,
    request,
  });
const heldOrder = named("HeldOrder", heldRequest(orderRequest.schema)).schema;
const heldTransfer = named("HeldTransfer", heldRequest(transferRequest.schema)).schema;

/**
 * A page of the orders or transfers table: how much of the service the back end read for it
 * (always said on these two), and on the first page (no cursor) the matching held creates.
 */
const tablePage = (items: z.ZodMiniType, heldRows: z.ZodMiniType) =>
  z.strictObject({
    items: z.array(items),
    /** The next page's cursor, or null on the last page. */
    next_cursor: nullableText,
    scanned: z.int(),
    walked: z.boolean(),
    truncated: z.boolean(),
    scan_cap: z.int(),
    held: opt(z.array(heldRows)),
  });
export const ordersPage = named("OrdersPage", tablePage(orderRecordSchema, heldOrder));
export const transfersPage = named("TransfersPage", tablePage(transferRecordSchema, heldTransfer));

const apiToken = named(
  "ApiToken",
  z.strictObject({
    id: text,
    name: text,
    scopes: z.array(z.enum(TOKEN_SCOPES)),
    created_at: text,
    expires_at: text,
    last_used_at: nullableText,
    revoked_at: nullableText,
    /** In an admin's list: whose it is. */
    owner_email: opt(text),
  }),
).schema;
export const apiTokens = named("ApiTokens", z.strictObject({ items: z.array(apiToken) }));
/** The secret (`dsk_…`) is shown this once. */
export const createdApiToken = named("CreatedApiToken", z.strictObject({ token: apiToken, secret: text }));

export const policyAnswer = named("PolicyAnswer", z.strictObject({ policy: policy.schema }));

/** A page of the dashboard's own records (the journal, the audit trail): no walk of the service's. */
const ownPage = (items: z.ZodMiniType) => z.strictObject({ items: z.array(items), next_cursor: nullableText });

const journalKind = z.enum(["order", "transfer", "cancel"]);
const journalStatus = z.enum(["pending", "succeeded", "failed", "declined"]);
const activityEntry = named(
  "ActivityEntry",
  z.strictObject({
    id: text,
    kind: journalKind,
    ref_id: text,
    user_email: text,
    user_role: text,
    profile_id: text,
    to_profile_id: nullableText,
    /** The request as sent; for a cancel, the order cancelled. */
    request: z.record(z.string(), z.unknown()),
    status: journalStatus,
    created_at: text,
    completed_at: nullableText,
    http_status: z.nullable(z.int()),
    latency_ms: z.nullable(z.number()),
    /** The service's record, when the create succeeded. */
    record: z.unknown(),
    problem: z.nullable(problem.schema),
    result_id: nullableText,
    duplicate_of: nullableText,
    /** Who approved a create that waited for approval. */
    approval: opt(
      z.strictObject({ id: text, approved_by: z.array(z.strictObject({ by: text, role: text, at: text })) }),
    ),
    /** The record's status at the service now (an order answered SUBMITTED may be REJECTED since). */
    record_status_now: opt(text),
  }),
).schema;
export const activityPage = named("ActivityPage", ownPage(activityEntry));

const auditEntry = named(
  "AuditEntry",
  z.strictObject({
    seq: z.int(),
    at: text,
    action: z.enum(AUDIT_ACTIONS),
    actor_email: nullableText,
    actor_role: nullableText,
    ip: nullableText,
    subject: nullableText,
    detail: z.record(z.string(), z.unknown()),
    /** This entry's link in the trail's hash chain. */
    hash: text,
  }),
).schema;
export const auditPage = named("AuditPage", ownPage(auditEntry));

// Each dashboard shape against its TypeScript type, key for key (every key of every member of a union).
type Keys<T> = T extends unknown ? keyof T : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Mirrors<S extends z.ZodMiniType, T> = Same<Keys<z.output<S>>, Keys<T>>;

const _approval: Mirrors<typeof approvalSchema, Approval> = true;
const _approvalKind: Same<z.output<typeof approvalKind>, ApprovalKind> = true;
const _rule: Mirrors<typeof approvalRule, ApprovalRule> = true;
const _held: Mirrors<typeof held.schema, Held> = true;
const _batch: Mirrors<typeof batchSchema, Batch> = true;
const _batchRow: Mirrors<typeof batchRow, BatchRowView> = true;
const _counts: Mirrors<typeof counts, Batch["counts"]> = true;
const _heldOrder: Mirrors<typeof heldOrder, HeldRequest<unknown>> = true;
const _ordersPage: Mirrors<typeof ordersPage.schema, Awaited<ReturnType<typeof listOrders>>> = true;
const _transfersPage: Mirrors<typeof transfersPage.schema, Awaited<ReturnType<typeof listTransfers>>> = true;
const _apiToken: Mirrors<typeof apiToken, ApiTokenView> = true;
const _createdToken: Mirrors<typeof createdApiToken.schema, Awaited<ReturnType<typeof createApiToken>>> = true;
const _policy: Mirrors<typeof policy.schema, Policy> = true;
const _activityEntry: Mirrors<typeof activityEntry, ActivityEntry> = true;
const _journalKind: Same<z.output<typeof journalKind>, ActivityEntry["kind"]> = true;
const _journalStatus: Same<z.output<typeof journalStatus>, ActivityEntry["status"]> = true;
const _auditEntry: Mirrors<typeof auditEntry, AuditEntryView> = true;
const _target: Same<Keys<z.output<typeof targets.schema>["targets"][number]>, Keys<RebalanceTarget>> = true;
