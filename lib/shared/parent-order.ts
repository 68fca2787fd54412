import * as z from "zod/mini";
import {
  BASE_AMOUNT_SCALE,
  compareDecimal,
  divideDecimalDown,
  marketSchema,
  orderSideSchema,
  positiveDecimal,
  refIdSchema,
  identifier,
  orderRuleViolations,
  REF_ID_MAX_CHARS,
} from "@/lib/spec";
import type { OrderQuality } from "./order-quality";

/**
 * A TWAP parent order (issue 29): a large order the dashboard works over time in slices, each
 * slice one child order (a LIMIT IOC under `<parent ref_id>-<n>`, never above the parent's
 * `limit_price` on a buy, never below it on a sell). The service has no such order type: the
 * parent lives only here; its children are ordinary orders at the service.
 * Shared by the back end (lib/server/parent-orders), the ticket and the parent's page.
 */
export const PARENT_ORDER_STATUSES = [
  "AWAITING_APPROVAL",
  "WORKING",
  "PAUSED",
  "COMPLETED",
  "CANCELLED",
  "REJECTED",
  "EXPIRED",
] as const;
export type ParentOrderStatus = (typeof PARENT_ORDER_STATUSES)[number];

/** A parent whose children may still go: the ones a cancel can stop. */
export const isOpenParent = (status: ParentOrderStatus): boolean =>
  status === "AWAITING_APPROVAL" || status === "WORKING" || status === "PAUSED";

/**
 * A child's state: SCHEDULED (its time has not come), SENDING (journaled, its answer not yet
 * known), MERGED (its time passed while nothing
 * could send it: its share went with the next slice), SKIPPED (the parent ended first, or there
 * was nothing left to send), FAILED (the service refused it), or the service's order status
 * once sent (SUBMITTED, OPEN, FILLED, CANCELLED, REJECTED, PENDING_SUBMISSION).
 */
export type ParentChildStatus = "SCHEDULED" | "SENDING" | "MERGED" | "SKIPPED" | "FAILED" | (string & {});

/** A child sent whose end is not known yet: SENDING (journaled) and the service's open statuses. */
export const UNSETTLED_CHILD_STATUSES = ["SENDING", "PENDING_SUBMISSION", "SUBMITTED", "OPEN"] as const;

/** True while a child sent may still fill. */
export const isUnsettledChild = (c: Pick<ParentOrderChild, "status">): boolean =>
  (UNSETTLED_CHILD_STATUSES as readonly string[]).includes(c.status);

export interface ParentOrderChild {
  n: number;
  ref_id: string;
  order_id: string | null;
  scheduled_at: string;
  sent_at: string | null;
  /** What the child asked for; null until it is sent. */
  base_amount: string | null;
  /** Its limit price (the touch, capped); null until it is sent. */
  price: string | null;
  status: ParentChildStatus;
  amount_filled: string;
  /** Its fills' volume-weighted average price; "" before any fill. */
  average_price: string;
}

export interface ParentOrder {
  id: string;
  ref_id: string;
  profile_id: string;
  market: string;
  side: "BUY" | "SELL";
  base_amount: string;
  limit_price: string;
  strategy: "TWAP";
  duration_seconds: number;
  slices: number;
  status: ParentOrderStatus;
  requested_by: string;
  created_at: string;
  approval_id: string | null;
  /** What the controls weighed it at, in USD. */
  value_usd: string;
  /** The children's fills added up, exactly. */
  filled_base: string;
  /** Their volume-weighted average price; "" before any fill. */
  average_price: string;
  /** When its first slice was due (null while it waits for approval, or when it never started). */
  started_at: string | null;
  /** When its last slice is due plus one slice's time: the end of its schedule (moved on by a pause). */
  ends_at: string | null;
  children: ParentOrderChild[];
  quality: OrderQuality;
}

/** What GET /api/events pushes as a parent is worked (event `parent_order`): the parent as it stands. */
export type ParentOrderEvent = ParentOrder;

export const PARENT_DURATION_MIN_SECONDS = 60;
export const PARENT_DURATION_MAX_SECONDS = 86_400;
export const PARENT_SLICES_MIN = 2;
export const PARENT_SLICES_MAX = 500;
/** Two slices are at least this far apart. */
export const PARENT_SLICE_MIN_SECONDS = 5;

/** A child's ref_id: the parent's, a dash, and the slice's number (1 is the first). */
export const childRefId = (parentRefId: string, n: number): string => `${parentRefId}-${n}`;

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .check(
      z.refine(Number.isInteger, `${label} must be a whole number`),
      z.gte(min, `${label} must be at least ${min.toLocaleString("en-US")}`),
      z.lte(max, `${label} may be at most ${max.toLocaleString("en-US")}`),
    );

/** The longest parent ref_id: its children's `-<n>` must still fit a ref_id. */
export const PARENT_REF_ID_MAX_CHARS = REF_ID_MAX_CHARS - `-${PARENT_SLICES_MAX}`.length;

const fields = {
  ref_id: z.optional(
    refIdSchema.check(
      z.maxLength(
        PARENT_REF_ID_MAX_CHARS,
        `Ref ID may be at most ${PARENT_REF_ID_MAX_CHARS} characters for a parent order: its children add "-<n>"`,
      ),
    ),
  ),
  profile_id: identifier("Profile ID"),
  market: marketSchema,
  side: orderSideSchema,
  base_amount: positiveDecimal("Base amount"),
  strategy: z.literal("TWAP", { error: 'Strategy must be "TWAP"' }),
  duration_seconds: wholeNumber("Duration", PARENT_DURATION_MIN_SECONDS, PARENT_DURATION_MAX_SECONDS),
  slices: wholeNumber("Slices", PARENT_SLICES_MIN, PARENT_SLICES_MAX),
  limit_price: positiveDecimal("Limit price"),
};

export interface RawParentOrder {
  ref_id?: unknown;
  market?: unknown;
  side?: unknown;
  base_amount?: unknown;
  duration_seconds?: unknown;
  slices?: unknown;
  limit_price?: unknown;
}

/**
 * The rules that span fields: slices at least 5 s apart; every slice at least the smallest base
 * amount; the limit price on the market's tick and the amount within its precision (the rules of
 * a LIMIT order of the whole, lib/spec/order-rules.ts, named by this request's fields).
 */
export function parentRuleViolations(p: RawParentOrder): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  const { duration_seconds: duration, slices } = p;
  if (typeof duration === "number" && typeof slices === "number" && Number.isInteger(slices) && slices > 0) {
    if (duration / slices < PARENT_SLICE_MIN_SECONDS) {
      const most = Math.floor(duration / PARENT_SLICE_MIN_SECONDS);
      out.push({
        path: ["slices"],
        message: `Slices must be at least ${PARENT_SLICE_MIN_SECONDS} seconds apart: at most ${most} over ${duration} seconds`,
      });
    }
    const base = typeof p.base_amount === "string" ? p.base_amount : undefined;
    if (base && /^\d*\.?\d+$/.test(base) && compareDecimal(smallestSlice(base, slices), "0") === 0) {
      out.push({
        path: ["base_amount"],
        message: `Base amount must be at least ${slices} × 0.00000001 so each of the ${slices} slices has something to buy or sell`,
      });
    }
  }
  const whole = { type: "LIMIT", side: p.side, market: p.market, base_amount: p.base_amount, price: p.limit_price };
  for (const v of orderRuleViolations(whole, 0)) {
    if (v.path[0] === "price") out.push({ path: ["limit_price"], message: v.message.replace(/^Price/, "Limit price") });
    else if (v.path[0] === "base_amount") out.push(v);
  }
  return out;
}

/** One slice's share of the whole, rounded down to the smallest base amount. */
export const smallestSlice = (base: string, slices: number): string =>
  divideDecimalDown(base, String(slices), BASE_AMOUNT_SCALE);

/** POST /api/parent-orders: the request, with every rule; the ticket's "Work over time" validates with it too. */
export const parentOrderRequestSchema = z.strictObject(fields).check(
  z.superRefine(
    (p, ctx) => {
      for (const v of parentRuleViolations(p))
        ctx.addIssue({ code: "custom", path: v.path, message: v.message, input: p });
    },
    { when: () => true },
  ),
);

export type ParentOrderRequest = z.infer<typeof parentOrderRequestSchema>;

/** A parent's request with its ref_id set (the back end makes one when none was sent). */
export type ParentOrderAsked = ParentOrderRequest & { ref_id: string };

/** True when the filled amount has reached the whole. */
export const isFullyFilled = (parent: Pick<ParentOrder, "filled_base" | "base_amount">): boolean =>
  compareDecimal(parent.filled_base, parent.base_amount) >= 0;
