"use client";

import { useCallback, useRef, useState, type ReactNode } from "react";
import { scrollBehavior } from "@/lib/client/motion";
import type { Batch } from "@/lib/shared/batch";
import type { PlannedTransfer } from "@/lib/shared/rebalance-plan";
import { BatchComposer, type BatchSource } from "./batch-composer";
import { BatchProgress } from "./batch-progress";
import { PastBatches } from "./past-batches";
import { Rebalancing } from "./rebalancing";

/**
 * The Batches page's parts, and what passes between them: a new batch (for ops and admins, as
 * `compose` says), the batch followed (just sent, or opened from the list), rebalancing (whose
 * plan fills the new batch), and the past batches.
 */
export function BatchesDesk({
  me,
  openId,
  compose,
  note,
  controlsLine,
}: {
  me: { email: string; admin: boolean; canCreate: boolean };
  /** A batch to open at once (`?batch=<id>`), or null. */
  openId: string | null;
  /** Whether this person may send batches here (the role, and the service's scope). */
  compose: boolean;
  /** What a person who may not send batches is told instead. */
  note: ReactNode;
  controlsLine: ReactNode;
}) {
  const [source, setSource] = useState<BatchSource>({ kind: "text" });
  const [open, setOpen] = useState<{ id: string; initial?: Batch; focus: boolean } | null>(
    openId ? { id: openId, focus: true } : null,
  );
  const plans = useRef(0);
  const composer = useRef<HTMLDivElement>(null);
  const progress = useRef<HTMLDivElement>(null);

  const show = useCallback((batch: Batch, focus = false) => {
    setOpen({ id: batch.id, initial: batch, focus });
    requestAnimationFrame(() => progress.current?.scrollIntoView({ block: "start", behavior: scrollBehavior() }));
  }, []);
  const openFromList = useCallback((batch: Batch) => show(batch, true), [show]);
  const makeBatch = (transfers: PlannedTransfer[]) => {
    setSource({ kind: "plan", transfers, n: ++plans.current });
    requestAnimationFrame(() => {
      composer.current?.scrollIntoView({ block: "start", behavior: scrollBehavior() });
      composer.current?.querySelector<HTMLButtonElement>("form button[type=submit]")?.focus({ preventScroll: true });
    });
  };

  return (
    <div className="space-y-6">
      <div ref={composer} className="scroll-mt-4">
        {compose ? (
          <BatchComposer source={source} setSource={setSource} onSent={show} controlsLine={controlsLine} />
        ) : (
          note
        )}
      </div>
      {open && (
        <div ref={progress} className="scroll-mt-4">
          <BatchProgress
            key={open.id}
            id={open.id}
            initial={open.initial}
            focus={open.focus}
            me={me}
            onClose={() => setOpen(null)}
          />
        </div>
      )}
      {compose && <Rebalancing onMakeBatch={makeBatch} />}
      <PastBatches openId={open?.id ?? null} onOpen={openFromList} />
    </div>
  );
}
