"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type BaseSyntheticEvent } from "react";
import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";
import { isHeld, type Approval, type Held } from "@/lib/shared/approval";
import { CONFIRM_PRICE_GUARD_HEADER, PRICE_GUARD_TYPE, type PriceGuard } from "@/lib/shared/price-guard";
import { CONFIRM_REPEAT_HEADER, previousCreateOf, repeatQuestion, type PreviousCreate } from "@/lib/shared/repeats";
import type { Problem } from "@/lib/spec/problem";
import { newRefId } from "@/lib/shared/ref-id";
import { problemOf } from "@/lib/client/api";
import { useToast } from "../ui/toasts";
import { preloadReviewPanel } from "./lazy-review-panel";
import type { ReviewAsk } from "./review-panel";
import { canRetry, showFieldErrors } from "./server-problem";
import type { FormOutput } from "./spec-resolver";

export interface CreateFlowParts<Values extends FieldValues, Output, Created> {
  /**
   * Sends the create; `headers` carries the answers "send another" (Confirm-Duplicate) and the
   * market typed past the price guard (Confirm-Price-Guard). A create held for approval answers `Held`.
   */
  send: (output: Output, headers: Record<string, string>) => Promise<Created | Held>;
  /** Journals the answer "don't send" about a repeat of `repeatOf`; nothing is sent. */
  decline: (output: Output, repeatOf: string) => Promise<unknown>;
  /** Query keys whose data a send changes. */
  refresh: readonly string[];
  /** Emptied after a send, so the same create is not sent again by a second Enter: the amounts. */
  clearAfterSend: readonly Path<Values>[];
  /** Where a keyboard user carries on after a send: the first amount field. */
  focusAfterSend: () => Path<Values>;
  /** A rule that can break while the review is open (a GTT expiry), checked again at Confirm. */
  recheck?: (output: Output) => { field: Path<Values>; message: string } | undefined;
}

/**
 * Check → review → send, shared by the order ticket and the transfer form, whose resolvers
 * (specResolver) hand over the checked request as `output.request`.
 *
 * - Only a timeout, a 5xx or a lost connection keeps the review open to retry the same ref_id
 *   (the same create to the service). A refusal (4xx) closes it back to the form with the
 *   problem, and a new ref_id: the next attempt is an edit, a new create.
 * - A repeat of a create sent moments ago comes back as a question (409 possible-duplicate);
 *   the answer is sent with the create (Confirm-Duplicate) or journaled (decline).
 * - An order past the price guard (428) asks for its market's name, typed, and is sent again
 *   with it (Confirm-Price-Guard).
 * - A create that needs four eyes comes back held (202): `held` is the approval to follow.
 * - After a success the amounts are emptied, the ref_id renewed and focus returns to the form.
 */
export function useCreateFlow<
  Values extends FieldValues & { ref_id: string },
  Output extends FormOutput<unknown>,
  Created,
>(form: UseFormReturn<Values, unknown, Output>, parts: CreateFlowParts<Values, Output, Created>) {
  const [review, setReview] = useState<Output | null>(null);
  const [result, setResult] = useState<Created | null>(null);
  /** The approval a create waits for, when the desk's rules hold it for four eyes. */
  const [held, setHeld] = useState<Approval | null>(null);
  /** The price guard's question (428), until the market's name is typed. */
  const [guard, setGuard] = useState<PriceGuard | null>(null);
  /** The market typed past the price guard, kept for a retry of the same ref_id. */
  const [guardTyped, setGuardTyped] = useState<string | undefined>();
  const [problem, setProblem] = useState<Problem | null>(null);
  /** The recent create the back end asked about, until the person answers. */
  const [repeat, setRepeat] = useState<PreviousCreate | null>(null);
  /** The repeat the person chose to send, kept for a retry of the same ref_id. */
  const [confirmedOf, setConfirmedOf] = useState<string | undefined>();
  /** A new panel (focus and pause again) for each answer that keeps the review open. */
  const [reviewKey, setReviewKey] = useState(0);
  const focusTo = useRef<Path<Values> | null>(null);
  const queryClient = useQueryClient();
  const notify = useToast();

  // Focus moves once the fieldset the review disabled is enabled again.
  useEffect(() => {
    if (review === null && focusTo.current) {
      form.setFocus(focusTo.current);
      focusTo.current = null;
    }
  }, [form, review]);

  const renewRefId = () => form.setValue("ref_id" as Path<Values>, newRefId() as PathValue<Values, Path<Values>>);
  const backToForm = (field: Path<Values>) => {
    setReview(null);
    setRepeat(null);
    setConfirmedOf(undefined);
    setGuard(null);
    setGuardTyped(undefined);
    focusTo.current = field;
  };

  const mutation = useMutation({
    mutationFn: ({ output, confirm, market }: { output: Output; confirm?: string; market?: string }) =>
      parts.send(output, {
        ...(confirm && { [CONFIRM_REPEAT_HEADER]: confirm }),
        ...(market && { [CONFIRM_PRICE_GUARD_HEADER]: market }),
      }),
    onSuccess: (created) => {
      setResult(isHeld(created) ? null : created);
      setHeld(isHeld(created) ? created.approval : null);
      setProblem(null);
      renewRefId();
      for (const field of parts.clearAfterSend) form.setValue(field, "" as PathValue<Values, Path<Values>>);
      for (const key of parts.refresh) void queryClient.invalidateQueries({ queryKey: [key] });
      backToForm(parts.focusAfterSend());
    },
    onError: (error) => {
      const p = problemOf(error);
      const previous = previousCreateOf(p);
      setReviewKey((k) => k + 1);
      if (previous) {
        setProblem(null);
        setRepeat(previous);
        return;
      }
      const priceGuard = priceGuardOf(p);
      if (priceGuard) {
        setProblem(null);
        setGuard(priceGuard);
        return;
      }
      setProblem(p);
      if (canRetry(p)) return;
      showFieldErrors(form, p);
      renewRefId();
      const refused = Object.keys(form.formState.errors)[0] as Path<Values> | undefined;
      backToForm(refused ?? parts.focusAfterSend());
    },
  });

  const checkThenReview = form.handleSubmit((output) => {
    setProblem(null);
    setResult(null);
    setHeld(null);
    setRepeat(null);
    setConfirmedOf(undefined);
    setGuard(null);
    setGuardTyped(undefined);
    setReviewKey((k) => k + 1);
    setReview(output);
  });
  const openReview = (event?: BaseSyntheticEvent) => {
    preloadReviewPanel();
    return checkThenReview(event);
  };

  function confirm() {
    if (!review) return;
    const stale = parts.recheck?.(review);
    if (stale) {
      form.setError(stale.field, { type: "stale", message: stale.message });
      backToForm(stale.field);
      return;
    }
    mutation.mutate({ output: review, confirm: confirmedOf, market: guardTyped });
  }

  /** Sends again with the market's name as the person typed it past the price guard. */
  function confirmPastGuard(typed: string) {
    if (!review || !guard) return;
    setGuardTyped(typed);
    setGuard(null);
    mutation.mutate({ output: review, confirm: confirmedOf, market: typed });
  }

  function sendAnother() {
    if (!review || !repeat) return;
    setConfirmedOf(repeat.ref_id);
    setRepeat(null);
    mutation.mutate({ output: review, confirm: repeat.ref_id, market: guardTyped });
  }

  function decline() {
    if (!review || !repeat) return;
    const answer = parts.decline(review, repeat.ref_id);
    renewRefId();
    backToForm(parts.focusAfterSend());
    answer.then(
      () => {
        notify({ title: "Not sent", detail: "Your answer is in Activity.", tone: "info" });
        void queryClient.invalidateQueries({ queryKey: ["activity"] });
      },
      (error: unknown) =>
        notify({
          title: "Not sent",
          detail: `The answer was not journaled: ${problemOf(error).detail}`,
          tone: "warning",
        }),
    );
  }

  const ask: ReviewAsk = repeat ? "repeat" : guard ? "guard" : problem && canRetry(problem) ? "retry" : "confirm";
  return {
    review,
    result,
    held,
    guard,
    confirmPastGuard,
    problem,
    pending: mutation.isPending,
    ask,
    repeatQuestion: repeat ? repeatQuestion(repeat) : undefined,
    reviewKey,
    openReview,
    confirm: ask === "repeat" ? sendAnother : confirm,
    decline,
    edit: () => backToForm(parts.focusAfterSend()),
  };
}

const priceGuardOf = (p: Problem): PriceGuard | undefined =>
  p.status === 428 && p.type === PRICE_GUARD_TYPE ? (p.meta as unknown as PriceGuard) : undefined;
