"use client";

import type { ReactNode } from "react";
import type { Approval } from "@/lib/shared/approval";
import type { PreviewTarget } from "@/lib/client/create-preview";
import { useProfileNames } from "@/lib/client/profile-names";
import { Button } from "../ui/button";
import { ProblemAlert } from "../ui/problem-alert";
import { AwaitingApproval, ReviewPanel } from "./lazy-review-panel";
import type { ReviewControls } from "./review-panel";
import { inDeskWords } from "./server-problem";
import type { CreateFlow } from "./use-create-flow";

type What = "order" | "transfer" | "batch";

/** The title of the problem when a create fails. */
const NOT_DONE: Record<What, string> = {
  order: "The order was not placed",
  transfer: "The transfer was not made",
  batch: "The batch was not sent",
};

/**
 * A checked request as the review shows it: in words, its exact values, and the create the
 * controls weigh (`preview`), or what a dry run made before the review already said (`controls`).
 */
export interface ReviewWords {
  sentence: string;
  details: [string, string | undefined][];
  preview?: PreviewTarget;
  controls?: ReviewControls;
}

/**
 * Under a create form's fields: the Review button and the desk's rules (`controlsLine`), or the
 * review itself; then what the last attempt came to: the problem, the record as it follows the
 * service (`result`), or the approval it awaits (`sent` draws the record once approved and sent;
 * without it the form follows the held create itself, as the batch's progress does).
 */
export function CreateFooter<Output, Created>({
  what,
  flow,
  describe,
  controlsLine,
  result,
  sent,
  submitLabel = `Review ${what}`,
}: {
  what: What;
  flow: CreateFlow<Output, Created>;
  describe: (output: Output) => ReviewWords;
  controlsLine: ReactNode;
  result: (created: Created) => ReactNode;
  sent?: (record: unknown, held: Approval) => ReactNode;
  /** The button that checks the form and opens the review. */
  submitLabel?: string;
}) {
  const { profiles } = useProfileNames();
  const review = flow.review && describe(flow.review);
  const { held, problem } = flow;
  return (
    <>
      {review ? (
        <ReviewPanel
          key={flow.reviewKey}
          testId={`${what}-review`}
          sentence={review.sentence}
          details={review.details}
          ask={flow.ask}
          repeatQuestion={flow.repeatQuestion}
          guard={flow.guard}
          preview={review.preview}
          controls={review.controls}
          pending={flow.pending}
          onConfirm={flow.confirm}
          onConfirmPastGuard={flow.confirmPastGuard}
          onEdit={flow.edit}
          onDecline={flow.decline}
        />
      ) : (
        <>
          <Button type="submit" className="w-full">
            {submitLabel}
          </Button>
          {controlsLine}
        </>
      )}
      {problem && (
        <ProblemAlert problem={inDeskWords(problem, what, profiles)} title={`${NOT_DONE[what]}: ${problem.title}`} />
      )}
      {flow.result !== null && result(flow.result)}
      {held && sent && <AwaitingApproval approval={held} sent={(record) => sent(record, held)} />}
    </>
  );
}
