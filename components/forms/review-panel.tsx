"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { formatMarket, formatPrice } from "@/lib/shared/format";
import { useCreatePreview, type PreviewTarget } from "@/lib/client/create-preview";
import type { PriceGuard } from "@/lib/shared/price-guard";
import { Button } from "../ui/button";
import { useArmed } from "../ui/use-armed";
import { PreviewNote } from "./preview-note";

// The pause lives beside its hook, shared with the approvals' Approve; named here as before.
export { REVIEW_ARMING_MS } from "../ui/use-armed";

/**
 * What the review asks for: the first send, a retry of the same ref_id, an answer about a
 * repeat, or the market's name typed past the price guard.
 */
export type ReviewAsk = "confirm" | "retry" | "repeat" | "guard";

/**
 * What the desk's controls will do, when the form weighed the create itself (a batch's own dry
 * run): its words, whether it will wait for approval, and whether that is still being asked.
 */
export interface ReviewControls {
  note: ReactNode;
  holds: boolean;
  checking: boolean;
}

/**
 * The step between a checked form and the request: the request in words and its details,
 * then Confirm or Edit. Focus lands on the review itself (a region read first), never on the
 * button that sends, and that button ignores activation for REVIEW_ARMING_MS. After a
 * timeout, a 5xx or a lost connection it retries the same ref_id; when the back end asks
 * about a repeat, "Send another" or "Don't send"; past the price guard, the market's name
 * typed before "Send past the guard" does anything. Give it a new `key` for each answer that keeps
 * it open, so focus and the pause start again.
 */
export function ReviewPanel({
  testId,
  sentence,
  details,
  ask,
  repeatQuestion,
  guard,
  preview: target,
  controls,
  pending,
  onConfirm,
  onConfirmPastGuard,
  onEdit,
  onDecline,
}: {
  testId: string;
  sentence: string;
  /** Exact values under the sentence: the ref_id, a GTT expiry's 13 digits. */
  details: [string, string | undefined][];
  ask: ReviewAsk;
  /** For "repeat": "You sent this 3 s ago. Send another?" */
  repeatQuestion?: string;
  /** For "guard": the price guard's figures and the market to type. */
  guard?: PriceGuard | null;
  /** The create as it would be sent: the back end's dry run says what the desk's controls will do with it. */
  preview?: PreviewTarget;
  /** Instead of `preview`: the form's own account of the controls. */
  controls?: ReviewControls;
  pending: boolean;
  /** Sends (or retries, or sends another). */
  onConfirm: () => void;
  onEdit: () => void;
  /** "Don't send", for "repeat". */
  onDecline: () => void;
  /** For "guard": sends again with the market's name as typed. */
  onConfirmPastGuard?: (typed: string) => void;
}) {
  const headingId = useId();
  const region = useRef<HTMLElement>(null);
  const preview = useCreatePreview(target);
  // The button arms once the review has been read a moment and the dry run has answered (or failed).
  const armed = useArmed() && !(target && preview.isPending) && !controls?.checking;
  const willHold = controls ? controls.holds : preview.data?.outcome === "hold";
  // The question is read from its start, not from the button that would answer it.
  useEffect(() => region.current?.focus(), []);
  const [typed, setTyped] = useState("");
  // "ETH/USD" as the page writes it, or the code "ETHUSD": either names the market.
  const guardMet = guard ? typed.trim().toUpperCase().replace("/", "") === guard.market : false;
  const send = () => {
    if (!armed || pending) return;
    if (ask === "guard") {
      if (guardMet) onConfirmPastGuard?.(guard!.market);
      return;
    }
    onConfirm();
  };

  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-testid="review"
      className="space-y-3 rounded-md border border-brand/30 bg-brand-soft/40 p-3 focus:outline-2 focus:outline-brand"
    >
      <h3 id={headingId} className="text-sm font-semibold">
        Review
      </h3>
      <p data-testid={testId} className="text-sm">
        {sentence}
      </p>
      <dl className="font-mono text-xs text-ink-muted">
        {details
          .filter(([, value]) => value)
          .map(([name, value]) => (
            <div key={name} className="flex gap-2">
              <dt>{name}</dt>
              <dd className="break-all">{value}</dd>
            </div>
          ))}
      </dl>
      {target && <PreviewNote preview={preview} />}
      {controls?.note}
      {ask === "guard" && guard && (
        <div role="alert" className="space-y-2 text-sm" data-testid="price-guard">
          <p className="font-semibold text-warn">
            This order would trade at {formatPrice(guard.price)}, {guard.deviation_percent}% from the mid of{" "}
            {formatPrice(guard.mid)}: past the desk&apos;s {guard.limit_percent}% guard.
          </p>
          <label className="block">
            <span>Type {formatMarket(guard.market)} to send it anyway</span>
            <input
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={typed !== "" && !guardMet}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-surface px-2 py-1 font-mono"
            />
          </label>
        </div>
      )}
      {ask === "repeat" && (
        <p role="alert" data-testid="repeat-question" className="text-sm font-semibold text-warn">
          {repeatQuestion}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={send}
          disabled={pending || (ask === "guard" && !guardMet)}
          aria-disabled={!armed || undefined}
          data-armed={armed}
          className={armed ? "" : "opacity-60"}
        >
          {pending ? "Sending…" : ask === "confirm" && willHold ? "Submit for approval" : SEND_WORDS[ask]}
        </Button>
        <Button variant="secondary" onClick={ask === "repeat" ? onDecline : onEdit} disabled={pending}>
          {ask === "repeat" ? "Don't send" : "Edit"}
        </Button>
      </div>
    </section>
  );
}

const SEND_WORDS: Record<ReviewAsk, string> = {
  confirm: "Confirm and send",
  retry: "Retry with the same ref_id",
  repeat: "Send another",
  guard: "Send past the guard",
};
