import type { $ZodType } from "zod/v4/core";
import type { Action } from "@/lib/shared/roles";
import { CONFIRM_PRICE_GUARD_HEADER } from "@/lib/shared/price-guard";
import { CONFIRM_REPEAT_HEADER } from "@/lib/shared/repeats";
import {
  approvalsQuerySchema,
  liveWantsQuerySchema,
  orderQualityQuerySchema,
  relayedOrdersQuerySchema,
  relayedTransfersQuerySchema,
} from "@/lib/server/http/route-schemas";
import { activityExportQuery, activityListQuery } from "@/lib/server/lists/activity-list";
import { auditExportQuery, auditListQuery } from "@/lib/server/lists/audit-list";
import { ordersExportQuery, ordersListQuery } from "@/lib/server/lists/orders-list";
import { transfersExportQuery, transfersListQuery } from "@/lib/server/lists/transfers-list";
import {
  activityPage,
  apiTokenAnswer,
  apiTokens,
  approvalAnswer,
  approvalContext,
  approvals,
  auditPage,
  auditVerification,
  balances,
  batchAnswer,
  batchPreviewAnswer,
  batches,
  cancelAcknowledged,
  createdApiToken,
  createPreview,
  endedSession,
  held,
  heldBatch,
  heldParentOrder,
  journalEntry,
  order,
  orderBook,
  orderQuality,
  ordersPage,
  parentOrderAnswer,
  parentOrders,
  policyAnswer,
  rebalancePlan,
  recentExecutions,
  serviceMarkets,
  serviceOrders,
  serviceProfiles,
  serviceTransfers,
  sessions,
  ticker,
  transfer,
  transfersPage,
  createdWebhook,
  deliveries,
  deliveryAnswer,
  webhookAnswer,
  webhooks,
} from "./answers";
import { EVENT_ACTION } from "@/lib/server/live/events";
import type { Named } from "./components";
import {
  batchCsvQuerySchema,
  batchRequest,
  declineRepeat,
  newToken,
  newWebhook,
  notificationSettings,
  orderPreview,
  orderRequest,
  parentOrderRequest,
  policy,
  reject,
  targets,
  transferRequest,
} from "./schemas";

/**
 * The table of the dashboard's API as a script sees it: every route under app/api a script may
 * call (next-auth's /api/auth/* and the /api/v2 catch-all that refuses the rest aside), each
 * method with the zod schemas its handler parses (query and body), the statuses it answers and
 * what (answers.ts). document.ts makes the OpenAPI document of it; test/routes/openapi.test.ts
 * holds it against the route files and real answers.
 */

export type Method = "get" | "post" | "put" | "delete";

export interface Operation {
  method: Method;
  /** The path as OpenAPI writes it: `/api/approvals/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /**
   * The action of lib/shared/roles.ts the route's wrapper checks (its role, and a token's scope);
   * "public" for what needs no caller (the probes, this document), "metrics" for the scraper's.
   */
  access: Action | "public" | "metrics";
  /** The query schema the handler parses with (document.ts writes each key as a parameter). */
  query?: $ZodType;
  /** A JSON body (or, for a batch, a CSV file too). */
  body?: Named & { csv?: boolean };
  /** Request headers the route reads. */
  headers?: { name: string; description: string }[];
  /** Each success status: its description and what it answers. */
  ok: Record<number, { description: string; answer?: Named | "csv" | "event-stream" | "text" | "object" }>;
  /** The problem statuses the handler itself answers, beyond those of the wrapper (document.ts adds them). */
  problems: Partial<Record<number, string>>;
}

const REPEAT = {
  name: CONFIRM_REPEAT_HEADER,
  description:
    "The ref_id of one's own recent create this one repeats, to send it anyway (the 409 `Possible Duplicate` names it).",
};
const PRICE_GUARD = {
  name: CONFIRM_PRICE_GUARD_HEADER,
  description: "The market, to send an order whose price is far from the market's anyway (the 428 names it).",
};

const NOT_FOUND = "Nothing has that id.";
const INVALID = "A field breaks a rule: `meta.errors` names each.";
const CREATE_CONFLICT =
  "The ref_id is taken by a different request, in progress or declined; or the create repeats one's own from the last minute (`Possible Duplicate`: send it again with Confirm-Duplicate naming the earlier ref_id).";
/** A create answers 200 whether it was sent now or is a replay of its ref_id: the service's record. */
const createOk = (record: Named, what: string) => ({
  200: { description: `Sent, or the ref_id's ${what} as it stands (a replay): the service's ${what}.`, answer: record },
  202: {
    description: 'Held for approval: `{"approval"}`; nothing is sent until an approver approves.',
    answer: held,
  },
});
const CREATE_PROBLEMS = {
  400: INVALID,
  404: "A profile or account the request names does not exist.",
  409: CREATE_CONFLICT,
  413: "The body is too large.",
  415: "The body is not application/json.",
  502: "The service failed.",
  503: "The service, or a price the controls need, is unavailable.",
};

const id = (thing: string) => ({ 400: `The ${thing} id is malformed.`, 404: NOT_FOUND });
const csv = (what: string) => ({ 200: { description: `${what}, every match, as CSV.`, answer: "csv" as const } });

export const OPERATIONS: Operation[] = [
  // The dashboard's own description, and the probes: no caller needed.
  {
    method: "get",
    path: "/api/openapi.json",
    summary: "This document: the dashboard's API as OpenAPI 3.1",
    tag: "meta",
    access: "public",
    ok: { 200: { description: "The OpenAPI document.", answer: "object" } },
    problems: {},
  },
  {
    method: "get",
    path: "/api/health",
    summary: "Liveness: the process answers",
    tag: "meta",
    access: "public",
    ok: { 200: { description: "Alive.", answer: "object" } },
    problems: {},
  },
  {
    method: "get",
    path: "/api/ready",
    summary: "Readiness: the database and the service are reachable",
    tag: "meta",
    access: "public",
    ok: { 200: { description: "Ready.", answer: "object" } },
    problems: { 503: "Not ready: what is missing." },
  },
  {
    method: "get",
    path: "/api/metrics",
    summary: "Prometheus metrics: an admin's session, or Bearer METRICS_TOKEN",
    tag: "meta",
    access: "metrics",
    ok: { 200: { description: "Prometheus text exposition.", answer: "text" } },
    problems: {},
  },

  // Creates, through the one create path: the repeat question, the controls, four eyes, the journal.
  {
    method: "post",
    path: "/api/v2/profiles/{profile_id}/orders",
    summary: "Create an order",
    tag: "orders",
    access: "orders:create",
    body: orderRequest,
    headers: [REPEAT, PRICE_GUARD],
    ok: createOk(order, "order"),
    problems: {
      ...CREATE_PROBLEMS,
      403: "Past a limit of the desk's controls, or the role may not.",
      428: "Its price is far from the market's (the price guard): send it again with Confirm-Price-Guard naming the market.",
    },
  },
  {
    method: "post",
    path: "/api/orders/preview",
    summary: "What the controls would do with an order now (nothing is sent)",
    tag: "orders",
    access: "orders:create",
    body: orderPreview,
    ok: {
      200: {
        description: "What the controls would do: send, hold (and how) or refuse (and why).",
        answer: createPreview,
      },
    },
    problems: { 400: INVALID, 404: "A profile the request names does not exist.", 503: CREATE_PROBLEMS[503] },
  },
  {
    method: "get",
    path: "/api/orders",
    summary: "The orders table: filtered, sorted, one page",
    tag: "orders",
    access: "read",
    query: ordersListQuery,
    ok: { 200: { description: "One page; the first also carries the matching held orders.", answer: ordersPage } },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/orders/export.csv",
    summary: "The orders table as CSV",
    tag: "orders",
    access: "read",
    query: ordersExportQuery,
    ok: csv("The orders"),
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/orders/{order_id}/quality",
    summary: "An order's execution quality: its fills against the mid it arrived at, and the market over its life",
    tag: "orders",
    access: "read",
    query: orderQualityQuerySchema,
    ok: {
      200: {
        description:
          "The quality; `arrival_mid` null for an order the dashboard did not send. A parent order's id: the parent's, over all its children.",
        answer: orderQuality,
      },
    },
    problems: {
      400: "The order id or profile_id is malformed, or the query names an unknown parameter.",
      404: NOT_FOUND,
      502: CREATE_PROBLEMS[502],
    },
  },
  {
    method: "get",
    path: "/api/v2/orders",
    summary: "The service's orders (relayed)",
    tag: "orders",
    access: "read",
    query: relayedOrdersQuerySchema,
    ok: { 200: { description: "The service's page of orders.", answer: serviceOrders } },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/v2/profiles/{profile_id}/orders/{id}",
    summary: "One order (relayed)",
    tag: "orders",
    access: "read",
    ok: { 200: { description: "The order.", answer: order } },
    problems: id("order"),
  },
  {
    method: "delete",
    path: "/api/v2/profiles/{profile_id}/orders/{id}",
    summary: "Cancel an order",
    tag: "orders",
    access: "orders:cancel",
    ok: {
      200: {
        description: "Acknowledged by the service (`{}`): the order's status shows whether it was cancelled.",
        answer: cancelAcknowledged,
      },
    },
    problems: { ...id("order"), 409: "The order can no longer be cancelled." },
  },
  {
    method: "post",
    path: "/api/v2/transfer/internal",
    summary: "Create an internal transfer",
    tag: "transfers",
    access: "transfers:create",
    body: transferRequest,
    headers: [REPEAT],
    ok: createOk(transfer, "transfer"),
    problems: { ...CREATE_PROBLEMS, 403: "Past a limit of the desk's controls, or the role may not." },
  },
  {
    method: "post",
    path: "/api/transfers/preview",
    summary: "What the controls would do with a transfer now (nothing is sent)",
    tag: "transfers",
    access: "transfers:create",
    body: transferRequest,
    ok: {
      200: {
        description: "What the controls would do: send, hold (and how) or refuse (and why).",
        answer: createPreview,
      },
    },
    problems: { 400: INVALID, 404: "A profile the request names does not exist.", 503: CREATE_PROBLEMS[503] },
  },
  {
    method: "get",
    path: "/api/transfers",
    summary: "The transfers table: filtered, sorted, one page",
    tag: "transfers",
    access: "read",
    query: transfersListQuery,
    ok: {
      200: {
        description: "One page of legs; the first also carries the matching held transfers.",
        answer: transfersPage,
      },
    },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/transfers/export.csv",
    summary: "The transfers table as CSV",
    tag: "transfers",
    access: "read",
    query: transfersExportQuery,
    ok: csv("The transfers"),
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/v2/transfer/transfers",
    summary: "The service's transfers (relayed)",
    tag: "transfers",
    access: "read",
    query: relayedTransfersQuerySchema,
    ok: { 200: { description: "The service's page of transfer legs.", answer: serviceTransfers } },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/v2/transfer/transfers/{id}",
    summary: "One transfer (relayed)",
    tag: "transfers",
    access: "read",
    ok: { 200: { description: "The transfer leg.", answer: transfer } },
    problems: id("transfer"),
  },

  // Batches of internal transfers.
  {
    method: "post",
    path: "/api/batches",
    summary: "Create a batch of internal transfers (CSV or JSON)",
    tag: "batches",
    access: "batches:create",
    query: batchCsvQuerySchema,
    body: batchRequest,
    headers: [REPEAT],
    ok: {
      200: { description: "The ref_id's batch as it stands (a replay).", answer: batchAnswer },
      201: { description: "Sent row by row.", answer: batchAnswer },
      202: { description: "Held for one approval of the whole.", answer: heldBatch },
    },
    problems: {
      ...CREATE_PROBLEMS,
      403: "Past a limit of the desk's controls, or the role may not.",
      415: "Neither text/csv nor application/json.",
    },
  },
  {
    method: "get",
    path: "/api/batches",
    summary: "The batches, newest first",
    tag: "batches",
    access: "read",
    ok: { 200: { description: "The batches.", answer: batches } },
    problems: {},
  },
  {
    method: "post",
    path: "/api/batches/preview",
    summary: "What the controls would do with a batch now (nothing is stored or sent)",
    tag: "batches",
    access: "batches:create",
    query: batchCsvQuerySchema,
    body: batchRequest,
    ok: {
      200: {
        description: "The rows read, every refused field, and the controls' verdict.",
        answer: batchPreviewAnswer,
      },
    },
    problems: {
      400: INVALID,
      413: CREATE_PROBLEMS[413],
      415: "Neither text/csv nor application/json.",
      503: CREATE_PROBLEMS[503],
    },
  },
  {
    method: "get",
    path: "/api/batches/{id}",
    summary: "One batch: its counts, totals and rows",
    tag: "batches",
    access: "read",
    ok: { 200: { description: "The batch.", answer: batchAnswer } },
    problems: id("batch"),
  },
  {
    method: "post",
    path: "/api/batches/{id}/cancel",
    summary: "Cancel what is left of a batch",
    tag: "batches",
    access: "batches:create",
    ok: { 200: { description: "The batch as it stands.", answer: batchAnswer } },
    problems: { ...id("batch"), 409: "Nothing is left to cancel." },
  },
  {
    method: "get",
    path: "/api/batches/{id}/results.csv",
    summary: "A batch's rows and what became of each, as CSV",
    tag: "batches",
    access: "read",
    ok: csv("The batch's rows"),
    problems: id("batch"),
  },

  // TWAP parent orders: weighed whole, worked in slices by the one scheduler.
  {
    method: "post",
    path: "/api/parent-orders",
    summary: "Create a TWAP parent order, worked over time in LIMIT IOC slices",
    tag: "parent orders",
    access: "orders:create",
    body: parentOrderRequest,
    headers: [PRICE_GUARD],
    ok: {
      200: { description: "The ref_id's parent order as it stands (a replay).", answer: parentOrderAnswer },
      201: { description: "Weighed whole and started: its first slice is due now.", answer: parentOrderAnswer },
      202: {
        description: "Held for one approval of the whole (kind parent_order); it starts only when approved.",
        answer: heldParentOrder,
      },
    },
    problems: {
      ...CREATE_PROBLEMS,
      403: "Past a limit of the desk's controls (the parent weighed whole), or the role may not.",
      409: "The ref_id is another parent order's, or one of its children's ref_ids is another order's.",
      428: "Its limit price is far from the market's (the price guard): send it again with Confirm-Price-Guard naming the market.",
    },
  },
  {
    method: "get",
    path: "/api/parent-orders",
    summary: "The parent orders, newest first, with their children and execution quality",
    tag: "parent orders",
    access: "read",
    ok: { 200: { description: "The parent orders.", answer: parentOrders } },
    problems: {},
  },
  {
    method: "get",
    path: "/api/parent-orders/{id}",
    summary: "One parent order: its children and its execution quality",
    tag: "parent orders",
    access: "read",
    ok: { 200: { description: "The parent order.", answer: parentOrderAnswer } },
    problems: id("parent order"),
  },
  ...(
    [
      ["pause", "Pause a working parent order: no child is sent until it resumes", "only a working one can be paused"],
      [
        "resume",
        "Resume a paused parent order: what is still scheduled moves on by the pause",
        "only a paused one can be resumed",
      ],
      ["cancel", "Cancel a parent order: the slices not yet sent are skipped", "it has ended already"],
    ] as const
  ).map(([action, summary, conflict]): Operation => ({
    method: "post",
    path: `/api/parent-orders/{id}/${action}`,
    summary: `${summary} (its requester or an admin)`,
    tag: "parent orders",
    access: "orders:create",
    ok: { 200: { description: "The parent order as it stands.", answer: parentOrderAnswer } },
    problems: {
      ...id("parent order"),
      403: "Only the parent order's requester or an admin may.",
      409: `Not in a state to ${action}: ${conflict}.`,
    },
  })),

  // Approvals: a token reads them; deciding and withdrawing are a person's.
  {
    method: "get",
    path: "/api/approvals",
    summary: "Approval requests, newest first",
    tag: "approvals",
    access: "read",
    query: approvalsQuerySchema,
    ok: { 200: { description: "The requests.", answer: approvals } },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/approvals/{id}",
    summary: "One approval request",
    tag: "approvals",
    access: "read",
    ok: { 200: { description: "The request.", answer: approvalAnswer } },
    problems: id("approval"),
  },
  {
    method: "get",
    path: "/api/approvals/{id}/context",
    summary: "What an approver weighs a request against",
    tag: "approvals",
    access: "approve",
    ok: { 200: { description: "The spend and the funds now, and the requester's sends.", answer: approvalContext } },
    problems: id("approval"),
  },
  {
    method: "post",
    path: "/api/approvals/{id}/approve",
    summary: "Approve a request (a person only, never the requester)",
    tag: "approvals",
    access: "approve",
    ok: { 200: { description: "The request as it stands.", answer: approvalAnswer } },
    problems: { ...id("approval"), 409: "The request is no longer pending." },
  },
  {
    method: "post",
    path: "/api/approvals/{id}/reject",
    summary: "Reject a request, with a reason (a person only)",
    tag: "approvals",
    access: "approve",
    body: reject,
    ok: { 200: { description: "The request as it stands.", answer: approvalAnswer } },
    problems: { ...id("approval"), 409: "The request is no longer pending." },
  },
  {
    method: "post",
    path: "/api/approvals/{id}/withdraw",
    summary: "Withdraw one's own request (a person only)",
    tag: "approvals",
    access: "approvals:withdraw",
    ok: { 200: { description: "The request as it stands.", answer: approvalAnswer } },
    problems: { ...id("approval"), 409: "The request is no longer pending." },
  },

  // The activity, the audit trail.
  {
    method: "get",
    path: "/api/activity",
    summary: "The journal of creates: one page",
    tag: "activity",
    access: "read",
    query: activityListQuery,
    ok: { 200: { description: "One page, newest first.", answer: activityPage } },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/activity/export.csv",
    summary: "The journal of creates as CSV",
    tag: "activity",
    access: "read",
    query: activityExportQuery,
    ok: csv("The journal"),
    problems: { 400: INVALID },
  },
  {
    method: "post",
    path: "/api/activity/declined",
    summary: "Decline a create that repeated one's own recent one (\"Don't send\")",
    tag: "activity",
    access: "read",
    body: declineRepeat,
    ok: { 200: { description: "The journal's declined entry.", answer: journalEntry } },
    problems: { 400: INVALID, 404: "One sent no such create.", 409: "The ref_id is taken." },
  },
  {
    method: "get",
    path: "/api/audit",
    summary: "The audit trail: one page",
    tag: "audit",
    access: "audit:read",
    query: auditListQuery,
    ok: { 200: { description: "One page, newest first.", answer: auditPage } },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/audit/export.csv",
    summary: "The audit trail as CSV",
    tag: "audit",
    access: "audit:read",
    query: auditExportQuery,
    ok: csv("The audit trail"),
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/audit/verify",
    summary: "Verify the audit trail's hash chain",
    tag: "audit",
    access: "audit:verify",
    ok: { 200: { description: "What the verification found.", answer: auditVerification } },
    problems: {},
  },

  // The desk's controls: read by a token, changed by a person.
  {
    method: "get",
    path: "/api/policies",
    summary: "The policy in force",
    tag: "controls",
    access: "read",
    ok: { 200: { description: "The policy.", answer: policyAnswer } },
    problems: {},
  },
  {
    method: "put",
    path: "/api/policies",
    summary: "Replace the policy (an admin; loosening waits for approval)",
    tag: "controls",
    access: "policies:edit",
    body: policy,
    ok: {
      200: { description: "Only tightened: the policy in force now.", answer: policyAnswer },
      202: { description: "Loosens something: held for approval, kind policy.", answer: held },
    },
    problems: { 400: INVALID, 409: "A policy change is already waiting." },
  },
  {
    method: "get",
    path: "/api/rebalance/targets",
    summary: "The rebalancing targets",
    tag: "controls",
    access: "rebalance:targets",
    ok: { 200: { description: "The targets.", answer: targets } },
    problems: {},
  },
  {
    method: "put",
    path: "/api/rebalance/targets",
    summary: "Replace every rebalancing target (a person only)",
    tag: "controls",
    access: "rebalance:targets",
    body: targets,
    ok: { 200: { description: "The targets now in place.", answer: targets } },
    problems: { 400: INVALID },
  },
  {
    method: "get",
    path: "/api/rebalance/plan",
    summary: "The transfers that would bring balances back within their bands",
    tag: "controls",
    access: "rebalance:targets",
    ok: { 200: { description: "The plan.", answer: rebalancePlan } },
    problems: {
      409: "The targets name a profile the service does not have.",
      503: "The service could not say what a profile holds.",
    },
  },

  // Market data and balances, relayed from the service.
  {
    method: "get",
    path: "/api/v2/markets",
    summary: "The markets (relayed)",
    tag: "markets",
    access: "read",
    ok: { 200: { description: "The markets.", answer: serviceMarkets } },
    problems: {},
  },
  ...(
    [
      ["ticker", ticker],
      ["order-book", orderBook],
      ["recent-executions", recentExecutions],
    ] as const
  ).map(([what, answer]): Operation => ({
    method: "get",
    path: `/api/v2/markets/{market}/${what}`,
    summary: `A market's ${what.replace("-", " ")} (relayed)`,
    tag: "markets",
    access: "read",
    ok: { 200: { description: `The ${what.replace("-", " ")}.`, answer } },
    problems: { 400: "The market is not one the service offers.", 404: NOT_FOUND },
  })),
  {
    method: "get",
    path: "/api/v2/profiles",
    summary: "The profiles (relayed)",
    tag: "profiles",
    access: "read",
    ok: { 200: { description: "The profiles.", answer: serviceProfiles } },
    problems: {},
  },
  {
    method: "get",
    path: "/api/v2/profiles/{profile_id}/balances",
    summary: "A profile's balances (relayed)",
    tag: "profiles",
    access: "read",
    ok: { 200: { description: "The balances.", answer: balances } },
    problems: id("profile"),
  },

  // The live stream: a session's only.
  {
    method: "get",
    path: "/api/events",
    summary: "The live stream (a browser session only; a token is refused)",
    tag: "live",
    access: "read",
    query: liveWantsQuerySchema,
    ok: {
      200: {
        description: `Server-sent events until the session ends, each \`data\` the record as JSON: ${Object.keys(
          EVENT_ACTION,
        )
          .map((name) => `\`${name}\``)
          .join(", ")}.`,
        answer: "event-stream",
      },
    },
    problems: { 400: INVALID, 404: "A profile the service does not have." },
  },

  // A person's own: sessions and tokens (never by a token).
  {
    method: "get",
    path: "/api/sessions",
    summary: "The live sessions (an admin)",
    tag: "people",
    access: "sessions:manage",
    ok: { 200: { description: "The live sessions.", answer: sessions } },
    problems: {},
  },
  {
    method: "delete",
    path: "/api/sessions/{id}",
    summary: "End a session (an admin)",
    tag: "people",
    access: "sessions:manage",
    ok: { 200: { description: "Ended: its cookie is refused from now on.", answer: endedSession } },
    problems: id("session"),
  },
  {
    method: "get",
    path: "/api/tokens",
    summary: "One's personal API tokens (an admin: everyone's)",
    tag: "people",
    access: "tokens",
    ok: { 200: { description: "The tokens, newest first; never a secret.", answer: apiTokens } },
    problems: {},
  },
  {
    method: "post",
    path: "/api/tokens",
    summary: "Create a personal API token; its secret is shown this once",
    tag: "people",
    access: "tokens",
    body: newToken,
    ok: { 201: { description: "The token, and its secret (`dsk_…`), shown this once.", answer: createdApiToken } },
    problems: { 400: INVALID },
  },
  {
    method: "delete",
    path: "/api/tokens/{id}",
    summary: "Revoke a token (one's own; an admin: any)",
    tag: "people",
    access: "tokens",
    ok: { 200: { description: "Revoked: the token, its `revoked_at` set.", answer: apiTokenAnswer } },
    problems: id("token"),
  },

  // Events out (an admin's, never by a token): docs/operations.md says what each event carries and how to verify one.
  {
    method: "get",
    path: "/api/webhooks",
    summary: "The webhooks (an admin)",
    tag: "webhooks",
    access: "webhooks:manage",
    ok: { 200: { description: "The webhooks, newest first; never a secret.", answer: webhooks } },
    problems: {},
  },
  {
    method: "post",
    path: "/api/webhooks",
    summary: "Register a webhook; its signing secret is shown this once",
    tag: "webhooks",
    access: "webhooks:manage",
    body: newWebhook,
    ok: { 201: { description: "The webhook, and its secret (`whsec_…`), shown this once.", answer: createdWebhook } },
    problems: {
      400: `${INVALID} A URL must be https (but for WEBHOOK_ALLOW_HOSTS) and reach only public addresses.`,
    },
  },
  {
    method: "delete",
    path: "/api/webhooks/{id}",
    summary: "Remove a webhook and its deliveries",
    tag: "webhooks",
    access: "webhooks:manage",
    ok: { 200: { description: "Removed: nothing more is sent to it.", answer: webhookAnswer } },
    problems: id("webhook"),
  },
  {
    method: "get",
    path: "/api/webhooks/{id}/deliveries",
    summary: "A webhook's deliveries, newest first",
    tag: "webhooks",
    access: "webhooks:manage",
    ok: { 200: { description: "Its latest 100 deliveries.", answer: deliveries } },
    problems: id("webhook"),
  },
  {
    method: "post",
    path: "/api/webhooks/{id}/deliveries/{delivery_id}/retry",
    summary: "Attempt a delivery again now, with the same webhook-id",
    tag: "webhooks",
    access: "webhooks:manage",
    ok: { 202: { description: "Due now: the dispatcher makes the attempt.", answer: deliveryAnswer } },
    problems: { ...id("webhook or delivery"), 409: "The webhook is turned off, or the delivery was delivered." },
  },
  {
    method: "post",
    path: "/api/webhooks/{id}/test",
    summary: "Send a `webhook.test` event to this webhook",
    tag: "webhooks",
    access: "webhooks:manage",
    ok: { 202: { description: "Due now: the dispatcher delivers it.", answer: deliveryAnswer } },
    problems: { ...id("webhook"), 409: "The webhook is turned off." },
  },
  {
    method: "get",
    path: "/api/notifications",
    summary: "One's own email notifications",
    tag: "people",
    access: "notifications",
    ok: {
      200: {
        description:
          "Whether one is emailed about requests waiting for one's decision and about decisions on one's own requests.",
        answer: notificationSettings,
      },
    },
    problems: {},
  },
  {
    method: "put",
    path: "/api/notifications",
    summary: "Turn one's own emails about approvals on or off",
    tag: "people",
    access: "notifications",
    body: notificationSettings,
    ok: {
      200: { description: "Kept (a change audited): the settings as they are now.", answer: notificationSettings },
    },
    problems: { 400: INVALID },
  },
];
