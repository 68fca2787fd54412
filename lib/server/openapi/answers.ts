import * as z from "zod/mini";
import type { ActivityEntry } from "@/lib/shared/activity-outcome";
import type { ApiTokenView } from "@/lib/shared/api-tokens";
import { APPROVAL_STATUSES, type Approval, type ApprovalKind, type Held } from "@/lib/shared/approval";
import type { ApprovalContext, ApprovalSpend, RequesterSends } from "@/lib/shared/approval-context";
import { AUDIT_ACTIONS, type AuditEntryView } from "@/lib/shared/audit-events";
import {
  BATCH_ROW_STATUSES,
  BATCH_STATUSES,
  type Batch,
  type BatchFunds,
  type BatchPreview,
  type BatchRowView,
} from "@/lib/shared/batch";
import type { BatchError, BatchRow } from "@/lib/shared/batch-file";
import type { CreatePreview, HoldPreview } from "@/lib/shared/create-preview";
import type { HeldRequest } from "@/lib/shared/held-requests";
import type { JournalEntry } from "@/lib/shared/journal-entry";
import type { NotificationSettings } from "@/lib/shared/notifications";
import type { OrderQuality } from "@/lib/shared/order-quality";
import {
  PARENT_ORDER_STATUSES,
  type ParentOrder,
  type ParentOrderChild,
  type ParentOrderStatus,
} from "@/lib/shared/parent-order";
import { approvalRuleSchema, type ApprovalRule, type CreateKind, type Policy } from "@/lib/shared/policy";
import type { PriceGuard } from "@/lib/shared/price-guard";
import type { PlannedTransfer, RebalancePlan, RebalanceTarget, Shortfall } from "@/lib/shared/rebalance-plan";
import type {
  Balance,
  BookLevel,
  Execution,
  ListedMarket,
  OrderBook,
  Profile,
  Ticker,
} from "@/lib/shared/service-shapes";
import { TOKEN_SCOPES } from "@/lib/shared/token-scopes";
import { DELIVERY_STATUSES, type DeliveryView, type WebhookView } from "@/lib/shared/webhooks";
import type { AuditVerification } from "@/lib/server/audit-trail";
import type { createApiToken, revokeApiTokenOf } from "@/lib/server/auth/api-tokens";
import type { registerWebhook } from "@/lib/server/events/webhooks";
import type { SessionRow } from "@/lib/server/auth/sessions";
import type { listOrders } from "@/lib/server/lists/orders-list";
import type { listTransfers } from "@/lib/server/lists/transfers-list";
import { marketSchema, orderRecordSchema, transferRecordSchema } from "@/lib/spec";
import { named } from "./components";
import { notificationSettings, orderRequest, policy, problem, targets, transferRequest } from "./schemas";

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
const approvalKind = z.enum(["order", "transfer", "batch", "parent_order", "policy"]);

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
/** Per asset: the rows' sum, and its worth in USD ("" when no market prices it). */
const assetTotal = z.strictObject({ asset: text, amount: text, value_usd: text });
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
    totals: z.array(assetTotal),
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

/** An order's execution quality (GET /api/orders/{order_id}/quality; a parent order's `quality`). */
export const orderQuality = named(
  "OrderQuality",
  z.strictObject({
    order_id: text,
    /** The mid when the dashboard received the create; null for an order it did not send. */
    arrival_mid: nullableText,
    arrival_at: nullableText,
    filled: text,
    fill_vwap: nullableText,
    /** Against the arrival mid, 2 decimals: positive a cost (paid more on a buy, received less on a sell), negative a saving. */
    slippage_bps: nullableText,
    /** The market's trades over the order's life; null when none is known in it. */
    market_vwap: nullableText,
    window_start: text,
    window_end: text,
  }),
);
const orderQualitySchema = orderQuality.schema;

const parentStatus = z.enum(PARENT_ORDER_STATUSES);
const parentChild = named(
  "ParentOrderChild",
  z.strictObject({
    n: z.int(),
    ref_id: text,
    order_id: nullableText,
    scheduled_at: text,
    sent_at: nullableText,
    base_amount: nullableText,
    price: nullableText,
    /** SCHEDULED, MERGED, SKIPPED, FAILED, or the service's order status once sent. */
    status: text,
    amount_filled: text,
    average_price: text,
  }),
).schema;
const parentOrder = named(
  "ParentOrder",
  z.strictObject({
    id: text,
    ref_id: text,
    profile_id: text,
    market: text,
    side: z.enum(["BUY", "SELL"]),
    base_amount: text,
    limit_price: text,
    strategy: z.literal("TWAP"),
    duration_seconds: z.int(),
    slices: z.int(),
    status: parentStatus,
    requested_by: text,
    created_at: text,
    approval_id: nullableText,
    value_usd: text,
    filled_base: text,
    /** "" before any fill. */
    average_price: text,
    started_at: nullableText,
    ends_at: nullableText,
    children: z.array(parentChild),
    quality: orderQualitySchema,
  }),
).schema;
export const parentOrderAnswer = named("ParentOrderAnswer", z.strictObject({ parent_order: parentOrder }));
export const parentOrders = named("ParentOrders", z.strictObject({ items: z.array(parentOrder) }));
/** A parent order held for one approval of the whole (kind parent_order): 202. */
export const heldParentOrder = named(
  "HeldParentOrder",
  z.strictObject({ approval: approvalSchema, parent_order: parentOrder }),
);

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
/** A revoked token: its `revoked_at` set. */
export const apiTokenAnswer = named("ApiTokenAnswer", z.strictObject({ token: apiToken }));

const webhook = named(
  "Webhook",
  z.strictObject({
    id: text,
    url: text,
    /** Event types, or ["*"] for every one. */
    events: z.array(text),
    description: text,
    enabled: z.boolean(),
    created_at: text,
    created_by: text,
    failing_since: nullableText,
    disabled_at: nullableText,
  }),
).schema;
export const webhooks = named("Webhooks", z.strictObject({ items: z.array(webhook) }));
/** The secret (`whsec_…`) is shown this once. */
export const createdWebhook = named("CreatedWebhook", z.strictObject({ webhook, secret: text }));
export const webhookAnswer = named("WebhookAnswer", z.strictObject({ webhook }));
const delivery = named(
  "WebhookDelivery",
  z.strictObject({
    /** The `webhook-id` header of every attempt. */
    id: text,
    webhook_id: text,
    event_type: text,
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    last_status_code: z.nullable(z.int()),
    last_error: nullableText,
    next_attempt_at: nullableText,
    created_at: text,
    delivered_at: nullableText,
  }),
).schema;
export const deliveries = named("WebhookDeliveries", z.strictObject({ items: z.array(delivery) }));
export const deliveryAnswer = named("WebhookDeliveryAnswer", z.strictObject({ delivery }));

export const policyAnswer = named("PolicyAnswer", z.strictObject({ policy: policy.schema }));

/** A page of the dashboard's own records (the journal, the audit trail): no walk of the service's. */
const ownPage = (items: z.ZodMiniType) => z.strictObject({ items: z.array(items), next_cursor: nullableText });

const journalKind = z.enum(["order", "transfer", "cancel"]);
const journalStatus = z.enum(["pending", "succeeded", "failed", "declined"]);
/** An entry of the journal: one create or one order cancel the desk sent (or declined to send). */
const journalShape = {
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
  approval: opt(z.strictObject({ id: text, approved_by: z.array(z.strictObject({ by: text, role: text, at: text })) })),
};
/** "Don't send": the 'declined' entry written for the create not sent. */
export const journalEntry = named("JournalEntry", z.strictObject(journalShape));
const activityEntry = named(
  "ActivityEntry",
  z.strictObject({
    ...journalShape,
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

/** The audit trail's hash chain walked: how many entries, and the first broken one if any. */
export const auditVerification = named(
  "AuditVerification",
  z.discriminatedUnion("ok", [
    z.strictObject({ ok: z.literal(true), entries: z.int() }),
    z.strictObject({ ok: z.literal(false), entries: z.int(), broken: z.strictObject({ seq: z.int(), reason: text }) }),
  ]),
);

// The controls' dry runs (nothing is sent): what a create, or a batch, would meet now.
const createKind = z.enum(["order", "transfer"]);
const priceGuard = named(
  "PriceGuard",
  z.strictObject({ market: text, mid: text, price: text, deviation_percent: text, limit_percent: text }),
).schema;
const holdPreview = z.strictObject({
  rule: approvalRule,
  /** Why a create below the rule's threshold is held: the rolling total, or an unpriced asset. */
  reason: nullableText,
  rolling_total_usd: nullableText,
  /** The roles whose members may approve it (never the requester). */
  approvers: z.array(text),
  /** When it would expire unapproved, if held now. */
  expires_at: text,
  price_decided_at_approval: z.boolean(),
});
const weighed = {
  kind: createKind,
  /** Null when no market prices the asset. */
  value_usd: nullableText,
  /** Past the price guard: the market's name will be asked for (Confirm-Price-Guard). */
  price_guard: z.nullable(priceGuard),
  /** An order that settles into another profile: weighed as a transfer too. */
  weighed_as_transfer: z.boolean(),
};
export const createPreview = named(
  "CreatePreview",
  z.discriminatedUnion("outcome", [
    z.strictObject({ outcome: z.literal("send"), ...weighed }),
    z.strictObject({ outcome: z.literal("hold"), hold: holdPreview, ...weighed }),
    z.strictObject({ outcome: z.literal("refuse"), problem: problem.schema, ...weighed }),
  ]),
);

/** What a batch takes from one sending profile in one asset, beside what it has available (null: the service could not say). */
const batchFunds = named(
  "BatchFunds",
  z.strictObject({ profile_id: text, asset: text, needed: text, available: nullableText }),
).schema;
/** One transfer of a batch as read from the file or the JSON, checked. */
const batchFileRow = z.strictObject({
  row: z.int(),
  from_profile_id: text,
  to_profile_id: text,
  asset: text,
  amount: text,
  ref_id: text,
  metadata: opt(z.record(z.string(), z.string())),
});
/** One refused field: `row` 0 for the file or the batch as a whole. */
const batchError = z.strictObject({ row: z.int(), field: text, message: text });
const batchHold = z.strictObject({ rule: approvalRule, reason: nullableText, approvers: z.array(text) });
const batchPreview = named(
  "BatchPreview",
  z.strictObject({
    ref_id: text,
    rows: z.array(batchFileRow),
    /** Every refused field of every row; the batch would be refused when any. */
    errors: z.array(batchError),
    totals: z.array(assetTotal),
    value_usd: nullableText,
    funds: z.array(batchFunds),
    /** What the controls would do; null when the file is refused. */
    outcome: z.nullable(z.enum(["send", "hold", "refuse"])),
    problem: opt(problem.schema),
    hold: opt(batchHold),
  }),
).schema;
export const batchPreviewAnswer = named("BatchPreviewAnswer", z.strictObject({ preview: batchPreview }));

/** The requester's sends of one kind against their limits (this request left out). */
const requesterSends = named(
  "RequesterSends",
  z.strictObject({
    email: text,
    kind: createKind,
    today_usd: text,
    daily_limit_usd: nullableText,
    unapproved_24h_usd: text,
    max_order_usd: nullableText,
  }),
).schema;
const approvalSpend = z.strictObject({ profile_id: text, asset: text, amount: text, available: nullableText });
export const approvalContext = named(
  "ApprovalContext",
  z.strictObject({
    /** What the request spends and what its profile has available now; null for a batch or a policy change. */
    spend: z.nullable(approvalSpend),
    requester: z.nullable(requesterSends),
    /** An order settling into another profile: the requester's transfers too. */
    requester_transfers: opt(requesterSends),
    /** A batch: what it takes from each sending profile, beside what the profile has now. */
    batch_funds: opt(z.array(batchFunds)),
  }),
);

const plannedTransfer = z.strictObject({ from_profile_id: text, to_profile_id: text, asset: text, amount: text });
const shortfall = z.strictObject({ profile_id: text, asset: text, missing: text });
export const rebalancePlan = named(
  "RebalancePlan",
  z.strictObject({ transfers: z.array(plannedTransfer), short: z.array(shortfall) }),
);

const session = named(
  "Session",
  z.strictObject({
    id: text,
    user_email: text,
    user_role: text,
    provider: text,
    ip: nullableText,
    started_at: text,
    last_seen_at: text,
    expires_at: text,
  }),
).schema;
export const sessions = named("Sessions", z.strictObject({ items: z.array(session) }));
export const endedSession = named(
  "EndedSession",
  z.strictObject({ session: z.strictObject({ id: text, user_email: text, revoked: z.literal(true) }) }),
);

// The service's answers the relays pass on, as the pages read them (lib/shared/service-shapes.ts; unknown fields pass).
/** Cancel Order: the service acknowledges with `{}`; the order's status shows the outcome. */
export const cancelAcknowledged = named("CancelAcknowledged", z.looseObject({}));
const listedMarket = named(
  "ListedMarket",
  z.looseObject({ market: text, base_asset: text, quote_asset: text, tick_rate: text }),
).schema;
export const serviceMarkets = named("ServiceMarkets", z.looseObject({ markets: z.array(listedMarket) }));
const bookLevel = named("BookLevel", z.looseObject({ price: text, amount: text })).schema;
/** A side or a level the service has nothing for may be null or left out. */
const level = opt(z.nullable(bookLevel));
const levels = opt(z.nullable(z.array(bookLevel)));
export const ticker = named(
  "Ticker",
  z.looseObject({ market: marketSchema, best_bid: level, best_ask: level, last_execution: level }),
);
export const orderBook = named("OrderBook", z.looseObject({ market: marketSchema, bids: levels, asks: levels }));
const execution = named(
  "Execution",
  z.looseObject({ match_number: text, price: text, amount: text, executed_at: text }),
).schema;
export const recentExecutions = named("RecentExecutions", servicePage(execution));
const profile = named("Profile", z.looseObject({ id: text, nickname: text, type: text })).schema;
export const serviceProfiles = named("ServiceProfilesPage", servicePage(profile));
const balance = named("Balance", z.looseObject({ asset: text, available: text, trading: text })).schema;
export const balances = named("Balances", z.looseObject({ items: z.array(balance) }));

// Each dashboard shape against its TypeScript type, key for key (every key of every member of a union).
type Keys<T> = T extends unknown ? keyof T : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Mirrors<S extends z.ZodMiniType, T> = Same<Keys<z.output<S>>, Keys<T>>;
/** A loose object (the service's: unknown fields pass) by the keys of its shape. */
type MirrorsShape<S extends { shape: object }, T> = Same<keyof S["shape"], Keys<T>>;

const _approval: Mirrors<typeof approvalSchema, Approval> = true;
const _approvalKind: Same<z.output<typeof approvalKind>, ApprovalKind> = true;
const _rule: Mirrors<typeof approvalRule, ApprovalRule> = true;
const _held: Mirrors<typeof held.schema, Held> = true;
const _batch: Mirrors<typeof batchSchema, Batch> = true;
const _batchRow: Mirrors<typeof batchRow, BatchRowView> = true;
const _orderQuality: Mirrors<typeof orderQualitySchema, OrderQuality> = true;
const _parentOrder: Mirrors<typeof parentOrder, ParentOrder> = true;
const _parentChild: Mirrors<typeof parentChild, ParentOrderChild> = true;
const _parentStatus: Same<z.output<typeof parentStatus>, ParentOrderStatus> = true;
const _parentSide: Same<z.output<typeof parentOrder>["side"], ParentOrder["side"]> = true;
const _counts: Mirrors<typeof counts, Batch["counts"]> = true;
const _heldOrder: Mirrors<typeof heldOrder, HeldRequest<unknown>> = true;
const _ordersPage: Mirrors<typeof ordersPage.schema, Awaited<ReturnType<typeof listOrders>>> = true;
const _transfersPage: Mirrors<typeof transfersPage.schema, Awaited<ReturnType<typeof listTransfers>>> = true;
const _apiToken: Mirrors<typeof apiToken, ApiTokenView> = true;
const _createdToken: Mirrors<typeof createdApiToken.schema, Awaited<ReturnType<typeof createApiToken>>> = true;
const _policy: Mirrors<typeof policy.schema, Policy> = true;
const _webhook: Mirrors<typeof webhook, WebhookView> = true;
const _createdWebhook: Mirrors<typeof createdWebhook.schema, Awaited<ReturnType<typeof registerWebhook>>> = true;
const _delivery: Mirrors<typeof delivery, DeliveryView> = true;
const _activityEntry: Mirrors<typeof activityEntry, ActivityEntry> = true;
const _journalKind: Same<z.output<typeof journalKind>, ActivityEntry["kind"]> = true;
const _journalStatus: Same<z.output<typeof journalStatus>, ActivityEntry["status"]> = true;
const _auditEntry: Mirrors<typeof auditEntry, AuditEntryView> = true;
const _target: Same<Keys<z.output<typeof targets.schema>["targets"][number]>, Keys<RebalanceTarget>> = true;
const _revokedToken: Mirrors<typeof apiToken, Awaited<ReturnType<typeof revokeApiTokenOf>>> = true;
const _journalEntry: Mirrors<typeof journalEntry.schema, JournalEntry> = true;
const _auditVerification: Mirrors<typeof auditVerification.schema, AuditVerification> = true;
const _createKind: Same<z.output<typeof createKind>, CreateKind> = true;
const _priceGuard: Mirrors<typeof priceGuard, PriceGuard> = true;
const _holdPreview: Mirrors<typeof holdPreview, HoldPreview> = true;
const _createPreview: Mirrors<typeof createPreview.schema, CreatePreview> = true;
const _createOutcome: Same<z.output<typeof createPreview.schema>["outcome"], CreatePreview["outcome"]> = true;
const _batchPreview: Mirrors<typeof batchPreview, BatchPreview> = true;
const _batchFileRow: Mirrors<typeof batchFileRow, BatchRow> = true;
const _batchError: Mirrors<typeof batchError, BatchError> = true;
const _batchFunds: Mirrors<typeof batchFunds, BatchFunds> = true;
const _batchHold: Mirrors<typeof batchHold, NonNullable<BatchPreview["hold"]>> = true;
const _batchOutcome: Same<z.output<typeof batchPreview>["outcome"], BatchPreview["outcome"]> = true;
const _approvalContext: Mirrors<typeof approvalContext.schema, ApprovalContext> = true;
const _approvalSpend: Mirrors<typeof approvalSpend, ApprovalSpend> = true;
const _requesterSends: Mirrors<typeof requesterSends, RequesterSends> = true;
const _rebalancePlan: Mirrors<typeof rebalancePlan.schema, RebalancePlan> = true;
const _plannedTransfer: Mirrors<typeof plannedTransfer, PlannedTransfer> = true;
const _shortfall: Mirrors<typeof shortfall, Shortfall> = true;
const _session: Mirrors<typeof session, SessionRow> = true;
const _notifications: Mirrors<typeof notificationSettings.schema, NotificationSettings> = true;
const _listedMarket: MirrorsShape<typeof listedMarket, ListedMarket> = true;
const _bookLevel: MirrorsShape<typeof bookLevel, BookLevel> = true;
const _ticker: MirrorsShape<typeof ticker.schema, Ticker> = true;
const _orderBook: MirrorsShape<typeof orderBook.schema, OrderBook> = true;
const _execution: MirrorsShape<typeof execution, Execution> = true;
const _profile: MirrorsShape<typeof profile, Profile> = true;
const _balance: MirrorsShape<typeof balance, Balance> = true;
