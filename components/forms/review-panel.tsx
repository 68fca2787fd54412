import { Button } from "../ui/button";

/**
 * The step between a checked form and the request: the request in words, its ref_id,
 * and Confirm (focused) or Edit. After a failure, Confirm says it retries the same ref_id.
 */
export function ReviewPanel({
  testId,
  sentence,
  refId,
  pending,
  failed,
  onConfirm,
  onEdit,
}: {
  testId: string;
  sentence: string;
  refId: string | undefined;
  pending: boolean;
  failed: boolean;
  onConfirm: () => void;
  onEdit: () => void;
}) {
  return (
    <section aria-label="Review" className="space-y-3 rounded-md border border-brand/30 bg-brand-soft/40 p-3">
      <h3 className="text-sm font-semibold">Review</h3>
      <p data-testid={testId} className="text-sm">
        {sentence}
      </p>
      <p className="font-mono text-xs text-ink-muted">ref_id {refId}</p>
      <div className="flex gap-2">
        <Button onClick={onConfirm} disabled={pending} autoFocus>
          {pending ? "Sending…" : failed ? "Retry with the same ref_id" : "Confirm and send"}
        </Button>
        <Button variant="secondary" onClick={onEdit} disabled={pending}>
          Edit
        </Button>
      </div>
    </section>
  );
}
