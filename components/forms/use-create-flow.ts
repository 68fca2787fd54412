"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useReducer, useRef, type BaseSyntheticEvent } from "react";
import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";
import type { Approval, Held } from "@/lib/shared/approval";
import type { PriceGuard } from "@/lib/shared/price-guard";
import { repeatQuestion } from "@/lib/shared/repeats";
import type { Problem } from "@/lib/spec/problem";
import { newRefId } from "@/lib/shared/ref-id";
import { problemOf } from "@/lib/client/api";
import { useToast } from "../ui/toasts";
import {
  afterRefusal,
  answerHeaders,
  createFlowReducer,
  EDITING,
  flowView,
  type CreateFlowEvent,
  type CreateFlowState,
} from "./create-flow-state";
import { preloadReviewPanel } from "./lazy-review-panel";
import type { ReviewAsk } from "./review-panel";
import { showFieldErrors } from "./server-problem";
import type { FormOutput } from "./spec-resolver";

export interface CreateFlowParts<Values extends FieldValues, Output, Created> {
  /**
   * Sends the create; `headers` carries the answers "send another" (Confirm-Duplicate) and the
   * market typed past the price guard (Confirm-Price-Guard). A create held for approval answers `Held`.
   */
  send: (output: Output, headers: Record<string, string>) => Promise<Created | Held>;
  /** Journals the answer "don't send" about a repeat of `repeatOf`; nothing is sent. */
  decline: (output: Output, repeatOf: string) => Promise<unknown>;
  /** Where that answer is kept, said in the notice "Not sent": in Activity unless told. */
  declinedDetail?: string;
  /** Query keys whose data a send changes. */
  refresh: readonly string[];
  /** Emptied after a send, so the same create is not sent again by a second Enter: the amounts. */
  clearAfterSend: readonly Path<Values>[];
  /** Where a keyboard user carries on after a send: the first amount field. */
  focusAfterSend: () => Path<Values>;
  /** A rule that can break while the review is open (a GTT expiry), checked again at Confirm. */
  recheck?: (output: Output) => { field: Path<Values>; message: string } | undefined;
  /** The form's field for a request field it shows under another name, for the server's field errors (spec-resolver.ts). */
  fieldOf?: Readonly<Record<string, string>>;
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
 *
 * Where the flow stands is one state (create-flow-state.ts); this hook adds what React and the
 * network do around each step.
 */
export function useCreateFlow<
  Values extends FieldValues & { ref_id: string },
  Output extends FormOutput<unknown>,
  Created,
>(
  form: UseFormReturn<Values, unknown, Output>,
  parts: CreateFlowParts<Values, Output, Created>,
): CreateFlow<Output, Created> {
  const [state, dispatch] = useReducer(createFlowReducer<Output, Created>, EDITING as CreateFlowState<Output, Created>);
  const view = flowView(state);
  const focusTo = useRef<Path<Values> | null>(null);
  const queryClient = useQueryClient();
  const notify = useToast();

  // Focus moves once the fieldset the review disabled is enabled again.
  useEffect(() => {
    if (view.review === null && focusTo.current) {
      form.setFocus(focusTo.current);
      focusTo.current = null;
    }
  }, [form, view.review]);

  const renewRefId = () => form.setValue("ref_id" as Path<Values>, newRefId() as PathValue<Values, Path<Values>>);
  const backToForm = (field: Path<Values>) => {
    focusTo.current = field;
    dispatch({ type: "back" });
  };

  function answered(answer: Created | Held) {
    renewRefId();
    for (const field of parts.clearAfterSend) form.setValue(field, "" as PathValue<Values, Path<Values>>);
    for (const key of parts.refresh) void queryClient.invalidateQueries({ queryKey: [key] });
    focusTo.current = parts.focusAfterSend();
    dispatch({ type: "answered", answer });
  }

  function failed(error: unknown) {
    const problem = problemOf(error);
    // A refusal (4xx) ends the review: the problem on its fields, a new ref_id for the next attempt.
    if (afterRefusal(problem).phase === "problem") {
      showFieldErrors(form, problem, parts.fieldOf);
      renewRefId();
      const refused = Object.keys(form.formState.errors)[0] as Path<Values> | undefined;
      focusTo.current = refused ?? parts.focusAfterSend();
    }
    dispatch({ type: "failed", problem });
  }

  /** Sends the review as the event leaves it, once: an event that sends nothing from here is ignored. */
  function send(event: CreateFlowEvent<Output, Created>) {
    const next = createFlowReducer(state, event);
    if (state.phase === "sending" || next.phase !== "sending") return;
    dispatch(event);
    const { output } = next.review;
    Promise.resolve()
      .then(() => parts.send(output, answerHeaders(next.review)))
      .then(answered, failed);
  }

  const checkThenReview = form.handleSubmit((output) => dispatch({ type: "review", output }));
  const openReview = (event?: BaseSyntheticEvent) => {
    preloadReviewPanel();
    return checkThenReview(event);
  };

  function confirm() {
    const stale = view.review && parts.recheck?.(view.review);
    if (stale) {
      form.setError(stale.field, { type: "stale", message: stale.message });
      backToForm(stale.field);
      return;
    }
    send({ type: "send" });
  }

  function decline() {
    if (state.phase !== "repeat-question") return;
    const answer = parts.decline(state.review.output, state.previous.ref_id);
    renewRefId();
    backToForm(parts.focusAfterSend());
    answer.then(
      () => {
        notify({ title: "Not sent", detail: parts.declinedDetail ?? "Your answer is in Activity.", tone: "info" });
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

  const { repeat, ...shown } = view;
  return {
    ...shown,
    repeatQuestion: repeat ? repeatQuestion(repeat) : undefined,
    openReview,
    confirm: view.ask === "repeat" ? () => send({ type: "send-another" }) : confirm,
    /** Sends again with the market's name as the person typed it past the price guard. */
    confirmPastGuard: (typed: string) => send({ type: "send-past-guard", typed }),
    decline,
    edit: () => backToForm(parts.focusAfterSend()),
  };
}

/** What a create form draws and calls: the review and its question, what the last attempt came to. */
export interface CreateFlow<Output, Created> {
  review: Output | null;
  reviewKey: number;
  ask: ReviewAsk;
  pending: boolean;
  problem: Problem | null;
  result: Created | null;
  /** The approval a create waits for, when the desk's rules hold it for four eyes. */
  held: Approval | null;
  /** The price guard's question (428), until the market's name is typed. */
  guard: PriceGuard | null;
  repeatQuestion: string | undefined;
  openReview: (event?: BaseSyntheticEvent) => Promise<void>;
  confirm: () => void;
  confirmPastGuard: (typed: string) => void;
  decline: () => void;
  edit: () => void;
}
