import "server-only";
import type { Kysely } from "kysely";
import { v7 as timeOrderedId } from "uuid";
import type { Approval } from "@/lib/shared/approval";
import {
  childRefId,
  parentOrderRequestSchema,
  type ParentOrder,
  type ParentOrderAsked,
} from "@/lib/shared/parent-order";
import { newRefId } from "@/lib/shared/ref-id";
import { problem, ProblemError, trimZeros, type Problem } from "@/lib/spec";
import type { SignedInUser } from "../auth/session";
import { canonicalJson } from "../canonical-json";
import { readFacts, readFunds, type Facts } from "../create/controls/facts";
import { limitRefusedEvents } from "../create/controls/limit-refused";
import { totalsOf } from "../create/controls/totals";
import { verdictOf, type Verdict } from "../create/controls/verdict";
import type { Create, CreateContext, CreateResult } from "../create/create";
import { announceHold } from "../create/hold";
import { requireScopeOf } from "../create/pipeline";
import { isUniqueViolation } from "../db";
import { insertApproval, type ApprovalRow } from "../db/approvals";
import { insertChildren, insertParent, parentOfRef, type ParentRecord } from "../db/parent-orders";
import { inPersonLock } from "../db/person-lock";
import type { Database } from "../db/schema";
import { parseOr400 } from "../http/toolkit";
import type { Runtime } from "../runtime";
import { scheduleEndsAt, sliceDueAt } from "./schedule";
import { announceParent, kickParents } from "./scheduler";
import { parentView } from "./view";

/**
 * POST /api/parent-orders: a TWAP parent order, weighed whole by the controls before any child
 * is sent, as one LIMIT order of its full amount at its limit price would be
 * (lib/server/create/controls/verdict.ts): the requester's right to trade, the largest order for
 * the role, the daily order limit (the parent reserved whole), the price guard on the limit
 * price, the funds, and four eyes. In the person's lock, like every create:
 * 1. the request with every rule (lib/shared/parent-order.ts): a 400 naming the field;
 * 2. its ref_id: a replay answers the parent as it stands; a child ref_id another order has is a 409;
 * 3. the verdict, and the parent written: WORKING with its schedule (201), or AWAITING_APPROVAL
 *    with its approval (kind "parent_order", 202), started only when approved (decided.ts);
 * 4. audited and announced; the scheduler (scheduler.ts) sends its children.
 */
export async function createParentOrder(rt: Runtime, input: unknown, ctx: CreateContext): Promise<CreateResult> {
  requireScopeOf(rt, "order");
  const request = parseOr400(parentOrderRequestSchema, input);
  const asked: ParentOrderAsked = { ...request, ref_id: request.ref_id ?? newRefId() };
  const replay = await parentOfRef(rt.db, asked.ref_id);
  if (replay) return replayOf(rt, replay, asked, ctx.user);
  try {
    await refuseTakenRefIds(rt.db, asked);
  } catch (error) {
    // A parallel request's parent, written since the look above, holds its children's ref_ids: a replay.
    const raced = await parentOfRef(rt.db, asked.ref_id);
    if (raced) return replayOf(rt, raced, asked, ctx.user);
    throw error;
  }
  const create = wholeOf(asked);
  const [facts, funds] = await Promise.all([
    readFacts(rt, create, ctx.user.role, ctx.user.email),
    readFunds(rt, create),
  ]);
  const step = await weighAndWrite(rt, asked, { ...facts, funds }, ctx).catch(async (error: unknown) => {
    // The same ref_id written by a parallel request in the same instant: answered as a replay.
    if (!isUniqueViolation(error)) throw error;
    const raced = await parentOfRef(rt.db, asked.ref_id);
    if (raced) return { replay: raced };
    throw error;
  });
  if ("replay" in step) return replayOf(rt, step.replay, asked, ctx.user);
  if ("refuse" in step.verdict) {
    await auditRefused(rt, ctx, asked, step.verdict.refuse.action, step.verdict.refuse.problem);
    throw new ProblemError(step.verdict.refuse.problem);
  }
  return announceCreated(rt, ctx, create, step);
}

/** The parent as the controls weigh it: one LIMIT IOC of its whole amount at its limit price. */
export const wholeOf = (asked: ParentOrderAsked): Create => ({
  kind: "order",
  profileId: asked.profile_id,
  request: {
    market: asked.market,
    side: asked.side,
    type: "LIMIT",
    time_in_force: "IOC",
    base_amount: asked.base_amount,
    price: asked.limit_price,
    ref_id: asked.ref_id,
  },
});

interface Written {
  verdict: Verdict;
  parent?: ParentRecord;
  approval?: ApprovalRow;
}

async function weighAndWrite(rt: Runtime, asked: ParentOrderAsked, facts: Facts, ctx: CreateContext) {
  const user = ctx.user;
  const create = wholeOf(asked);
  return inPersonLock(rt.db, user.email, async (tx): Promise<Written | { replay: ParentRecord }> => {
    // The same parent written by a parallel request of the person's while this one waited for the lock.
    const raced = await parentOfRef(tx, asked.ref_id);
    if (raced) return { replay: raced };
    // Again in the lock: an order made meanwhile under one of the children's ref_ids.
    await refuseTakenRefIds(tx, asked);
    const now = new Date(rt.clock.now());
    const own = { kind: "order" as const, refId: asked.ref_id };
    const totals = await totalsOf(tx, { email: user.email, kind: "order", own }, now);
    const verdict = verdictOf({ create, facts, totals, confirmedMarket: ctx.confirmedMarket });
    if ("refuse" in verdict) return { verdict };
    const id = timeOrderedId();
    const approval =
      "hold" in verdict
        ? await insertApproval(tx, user, {
            at: now,
            kind: "parent_order",
            refId: asked.ref_id,
            profileId: asked.profile_id,
            request: { ...asked, parent_order_id: id },
            valueUsd: verdict.hold.valueUsd,
            rule: verdict.hold.rule,
            holdReason: verdict.hold.reason,
            priceGuard: verdict.hold.guardConfirmed,
          })
        : undefined;
    const parent = parentRecordOf(id, asked, user, now, {
      status: approval ? "AWAITING_APPROVAL" : "WORKING",
      value_usd: ("send" in verdict ? verdict.send.valueUsd : verdict.hold.valueUsd) ?? "",
      approval_id: approval?.id ?? null,
    });
    await insertParent(tx, parent);
    const started = approval ? parent : await startSchedule(tx, parent, now, facts.quote?.mid ?? null);
    return { verdict, parent: started, approval };
  });
}

/**
 * A parent starts: its slices scheduled from `now`, one child row each, and the mid it started
 * at kept for its execution quality. Written with the parent's move to WORKING.
 */
export async function startSchedule(
  db: Kysely<Database>,
  parent: ParentRecord,
  now: Date,
  mid: string | null,
): Promise<ParentRecord> {
  const start = now.getTime();
  const children = Array.from({ length: parent.slices }, (_, i) => ({
    parent_id: parent.id,
    n: i + 1,
    ref_id: childRefId(parent.ref_id, i + 1),
    scheduled_at: new Date(sliceDueAt(start, parent.duration_seconds, parent.slices, i + 1)).toISOString(),
    sent_at: null,
    base_amount: null,
    price: null,
    status: "SCHEDULED",
    order_id: null,
    amount_filled: "0",
    average_price: "",
    problem_json: null,
  }));
  await insertChildren(db, children);
  const started = {
    started_at: now.toISOString(),
    ends_at: new Date(scheduleEndsAt(start, parent.duration_seconds)).toISOString(),
    arrival_mid: mid === null ? null : trimZeros(mid),
  };
  await db.updateTable("parent_orders").set(started).where("id", "=", parent.id).execute();
  return { ...parent, ...started };
}

/** Audited, pushed to every open screen, and started (201) or held for four eyes (202). */
async function announceCreated(rt: Runtime, ctx: CreateContext, create: Create, step: Written): Promise<CreateResult> {
  const parent = step.parent!;
  await rt.audit.append({
    action: "parent_order.requested",
    actor: ctx.user,
    ip: ctx.ip,
    subject: parent.ref_id,
    detail: {
      parent_order_id: parent.id,
      request: JSON.parse(parent.request_json) as unknown,
      value_usd: parent.value_usd,
      ...(step.approval ? { approval_id: step.approval.id } : {}),
    },
  });
  await announceParent(rt, parent.id);
  const view = await parentView(rt, parent);
  if (!step.approval || !("hold" in step.verdict)) {
    kickParents(rt);
    return { status: 201, body: { parent_order: view } };
  }
  const approval: Approval = await announceHold(rt, ctx.user, create, step.approval, step.verdict.hold, null, ctx.ip);
  return { status: 202, body: { approval, parent_order: view } };
}

/** The same parent ref_id again: the same requester's same request answers the parent as it stands (200); anything else is a 409. */
async function replayOf(
  rt: Runtime,
  parent: ParentRecord,
  asked: ParentOrderAsked,
  user: SignedInUser,
): Promise<CreateResult> {
  if (parent.requested_by !== user.email || parent.request_json !== canonicalJson(asked)) {
    throw refIdTaken(asked.ref_id, "This ref_id is another parent order's");
  }
  return { status: 200, body: { parent_order: await parentView(rt, parent) } satisfies { parent_order: ParentOrder } };
}

/** A 409 when an order (or a held one) already has one of the children's ref_ids. */
async function refuseTakenRefIds(db: Kysely<Database>, asked: ParentOrderAsked): Promise<void> {
  const refIds = Array.from({ length: asked.slices }, (_, i) => childRefId(asked.ref_id, i + 1));
  for (let i = 0; i < refIds.length; i += 250) {
    const part = refIds.slice(i, i + 250);
    const [journaled, held, children] = await Promise.all([
      db.selectFrom("journal").select("ref_id").where("kind", "=", "order").where("ref_id", "in", part).execute(),
      db.selectFrom("approvals").select("ref_id").where("kind", "=", "order").where("ref_id", "in", part).execute(),
      db.selectFrom("parent_children").select("ref_id").where("ref_id", "in", part).execute(),
    ]);
    const taken = [...journaled, ...held, ...children][0];
    if (taken) throw refIdTaken(asked.ref_id, `Its child's ref_id ${taken.ref_id} is another order's already`);
  }
}

const refIdTaken = (refId: string, message: string) =>
  new ProblemError(
    problem(
      409,
      "Already Exists",
      `ref_id: ${message}: a ref_id names one request, forever. Give this parent order a new ref_id.`,
      {
        ref_id: refId,
        errors: [{ field: "ref_id", message }],
      },
    ),
  );

function parentRecordOf(
  id: string,
  asked: ParentOrderAsked,
  user: SignedInUser,
  now: Date,
  fields: Pick<ParentRecord, "status" | "value_usd" | "approval_id">,
): ParentRecord {
  const at = now.toISOString();
  return {
    id,
    ref_id: asked.ref_id,
    profile_id: asked.profile_id,
    market: asked.market,
    side: asked.side,
    base_amount: asked.base_amount,
    limit_price: asked.limit_price,
    duration_seconds: asked.duration_seconds,
    slices: asked.slices,
    requested_by: user.email,
    requested_name: user.name,
    requested_role: user.role,
    request_json: canonicalJson(asked),
    created_at: at,
    updated_at: at,
    started_at: null,
    ends_at: null,
    paused_at: null,
    arrival_mid: null,
    filled_base: "0",
    filled_notional: "0",
    cancelled_by: null,
    ...fields,
  };
}

async function auditRefused(
  rt: Runtime,
  ctx: CreateContext,
  asked: ParentOrderAsked,
  action: "limit.refused" | "create.refused" | "price_guard.confirm_asked",
  refusal: Problem,
) {
  await rt.audit.append({
    action,
    actor: ctx.user,
    ip: ctx.ip,
    subject: asked.ref_id,
    detail: { kind: "parent_order", ref_id: asked.ref_id, request: asked, problem: refusal },
    events: limitRefusedEvents(
      action,
      {
        kind: "parent_order",
        ref_id: asked.ref_id,
        profile_id: asked.profile_id,
        requested_by: ctx.user.email,
        problem: refusal,
      },
      new Date(rt.clock.now()),
    ),
  });
}
