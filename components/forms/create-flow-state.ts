import { isHeld, type Approval, type Held } from "@/lib/shared/approval";
import { CONFIRM_PRICE_GUARD_HEADER, PRICE_GUARD_TYPE, type PriceGuard } from "@/lib/shared/price-guard";
import { CONFIRM_REPEAT_HEADER, previousCreateOf, type PreviousCreate } from "@/lib/shared/repeats";
import type { Problem } from "@/lib/spec/problem";
import type { ReviewAsk } from "./review-panel";
import { canRetry } from "./server-problem";

/**
 * Where a create form stands, as one value: the form open to edit (with what the last attempt
 * came to under it) or the review open (asking to confirm, to retry, about a repeat, or for the
 * market past the price guard, or sending). A pure reducer, so every step is tested without React.
 */

/** The checked request under review, and the answers a retry of the same ref_id sends again. */
export interface Review<Output> {
  output: Output;
  /** A new panel (focus and pause again) for each answer that keeps the review open. */
  key: number;
  /** The earlier create the person chose to repeat (Confirm-Duplicate). */
  confirmedOf?: string;
  /** The market's name as typed past the price guard (Confirm-Price-Guard). */
  guardTyped?: string;
}

export type CreateFlowState<Output, Created> =
  // The form, open to edit, and under it what the last attempt came to.
  | { phase: "editing" }
  | { phase: "result"; created: Created }
  | { phase: "awaiting-approval"; approval: Approval }
  | { phase: "problem"; problem: Problem }
  // The review, open. A retry's problem stays on screen while it is sent again.
  | { phase: "reviewing"; review: Review<Output> }
  | { phase: "sending"; review: Review<Output>; problem?: Problem }
  | { phase: "retry"; review: Review<Output>; problem: Problem }
  | { phase: "repeat-question"; review: Review<Output>; previous: PreviousCreate }
  | { phase: "price-guard"; review: Review<Output>; guard: PriceGuard };

export type CreateFlowEvent<Output, Created> =
  /** The form passed every check. */
  | { type: "review"; output: Output }
  /** Confirm, or retry with the same ref_id. */
  | { type: "send" }
  /** The repeat question answered "Send another". */
  | { type: "send-another" }
  | { type: "send-past-guard"; typed: string }
  | { type: "answered"; answer: Created | Held }
  | { type: "failed"; problem: Problem }
  /** Edit, "Don't send", or a rule that broke while the review was open. */
  | { type: "back" };

export const EDITING = { phase: "editing" } as const;

/** Where a refusal leaves the person: a question the open review asks, a retry, or the form. */
export function afterRefusal(
  problem: Problem,
):
  | { phase: "repeat-question"; previous: PreviousCreate }
  | { phase: "price-guard"; guard: PriceGuard }
  | { phase: "retry"; problem: Problem }
  | { phase: "problem"; problem: Problem } {
  const previous = previousCreateOf(problem);
  if (previous) return { phase: "repeat-question", previous };
  const guard = priceGuardOf(problem);
  if (guard) return { phase: "price-guard", guard };
  return canRetry(problem) ? { phase: "retry", problem } : { phase: "problem", problem };
}

const priceGuardOf = (p: Problem): PriceGuard | undefined =>
  p.status === 428 && p.type === PRICE_GUARD_TYPE ? (p.meta as unknown as PriceGuard) : undefined;

export function createFlowReducer<Output, Created>(
  state: CreateFlowState<Output, Created>,
  event: CreateFlowEvent<Output, Created>,
): CreateFlowState<Output, Created> {
  switch (event.type) {
    case "review":
      if (state.phase === "sending") return state;
      return { phase: "reviewing", review: { output: event.output, key: keyOf(state) + 1 } };
    case "send":
      if (state.phase === "reviewing") return { phase: "sending", review: state.review };
      if (state.phase === "retry") return { phase: "sending", review: state.review, problem: state.problem };
      return state;
    case "send-another":
      if (state.phase !== "repeat-question") return state;
      return { phase: "sending", review: { ...state.review, confirmedOf: state.previous.ref_id } };
    case "send-past-guard":
      if (state.phase !== "price-guard") return state;
      return { phase: "sending", review: { ...state.review, guardTyped: event.typed } };
    case "answered":
      if (state.phase !== "sending") return state;
      return isHeld(event.answer)
        ? { phase: "awaiting-approval", approval: event.answer.approval }
        : { phase: "result", created: event.answer };
    case "failed": {
      if (state.phase !== "sending") return state;
      const next = afterRefusal(event.problem);
      return next.phase === "problem" ? next : { ...next, review: { ...state.review, key: state.review.key + 1 } };
    }
    case "back":
      if (!("review" in state) || state.phase === "sending") return state;
      return "problem" in state ? { phase: "problem", problem: state.problem } : EDITING;
  }
}

const keyOf = (state: CreateFlowState<unknown, unknown>): number => ("review" in state ? state.review.key : 0);

/** What the forms draw from the state: the review and its question, and what the last attempt came to. */
export function flowView<Output, Created>(state: CreateFlowState<Output, Created>) {
  const open = "review" in state ? state.review : null;
  return {
    review: open?.output ?? null,
    reviewKey: open?.key ?? 0,
    ask: askOf(state),
    pending: state.phase === "sending",
    problem: "problem" in state ? (state.problem ?? null) : null,
    result: state.phase === "result" ? state.created : null,
    held: state.phase === "awaiting-approval" ? state.approval : null,
    guard: state.phase === "price-guard" ? state.guard : null,
    repeat: state.phase === "repeat-question" ? state.previous : null,
  };
}

function askOf(state: CreateFlowState<unknown, unknown>): ReviewAsk {
  if (state.phase === "repeat-question") return "repeat";
  if (state.phase === "price-guard") return "guard";
  return state.phase === "retry" || (state.phase === "sending" && state.problem) ? "retry" : "confirm";
}

/** The answers a send carries as headers: "send another" and the market typed past the guard. */
export const answerHeaders = (review: Review<unknown>): Record<string, string> => ({
  ...(review.confirmedOf && { [CONFIRM_REPEAT_HEADER]: review.confirmedOf }),
  ...(review.guardTyped && { [CONFIRM_PRICE_GUARD_HEADER]: review.guardTyped }),
});
