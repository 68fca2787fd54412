"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toasts";
import { api, problemOf } from "@/lib/client/api";
import { useProfileNames } from "@/lib/client/profile-names";
import type { Order } from "@/lib/spec/order";
import type { Problem } from "@/lib/spec/problem";
import { marketLabel } from "@/lib/spec/markets";
import { isFinalOrder, orderEndNotice } from "./order-outcome";

/** How long a row may say "Cancelling…" before it offers Cancel again, if the status never changes. */
const CANCELLING_FOR_MS = 30_000;

/**
 * The orders whose cancel the service acknowledged: each says "Cancelling…" until its status
 * moves on (or CANCELLING_FOR_MS passes); and the last cancel the service refused.
 */
export function useCancels(rows: readonly Order[] | undefined) {
  const notify = useToast();
  const { nickname } = useProfileNames();
  const [problem, setProblem] = useState<{ id: string; problem: Problem } | null>(null);
  const [cancelling, setCancelling] = useState<ReadonlySet<string>>(new Set());
  const stopCancelling = useCallback(
    (id: string) =>
      setCancelling((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      }),
    [],
  );
  const requested = useCallback(
    (order: Order) => {
      // The row says "Cancelling…" now; the one notice comes when the order has ended (below).
      setCancelling((s) => new Set(s).add(order.id));
      setTimeout(() => stopCancelling(order.id), CANCELLING_FOR_MS);
    },
    [stopCancelling],
  );
  // One notice per cancel, when the order the person cancelled ends: the same notice (by key)
  // the ticket's result card gives when it follows that order.
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const o of rows ?? []) {
      if (!cancelling.has(o.id) || !isFinalOrder(o.status) || told.current.has(o.id)) continue;
      told.current.add(o.id);
      notify(orderEndNotice(o, nickname(o.profile_id)));
    }
  }, [rows, cancelling, notify, nickname]);
  const refused = useCallback((order: Order, p: Problem | null) => setProblem(p && { id: order.id, problem: p }), []);
  return { problem, cancelling, requested, refused };
}

export function CancellingButton() {
  return (
    <Button variant="secondary" disabled size="sm" className="w-full">
      Cancelling…
    </Button>
  );
}

/**
 * Cancel with a confirm step. "Keep" sits where "Cancel" was and takes the focus, so a double
 * click or a hasty Enter never cancels an order by itself. The step stacks in the column's own
 * width (the actions column's reserved width, columns.tsx), so opening it never widens the table.
 */
export function CancelOrder({
  order,
  onProblem,
  onRequested,
}: {
  order: Order;
  onProblem: (problem: Problem | null) => void;
  /** The service acknowledged the cancel; the order's status will follow. */
  onRequested: () => void;
}) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // After "Keep" or Escape the focus goes back to "Cancel" instead of being lost.
  const [refocus, setRefocus] = useState(false);
  const keep = () => {
    setConfirming(false);
    setRefocus(true);
  };
  const cancel = useMutation({
    mutationFn: () =>
      api<object>(`/api/v2/profiles/${encodeURIComponent(order.profile_id)}/orders/${encodeURIComponent(order.id)}`, {
        method: "DELETE",
      }),
    onMutate: () => onProblem(null),
    onSuccess: () => {
      onRequested();
      void client.invalidateQueries({ queryKey: ["orders"] });
      void client.invalidateQueries({ queryKey: ["balances"] });
    },
    onError: (error) => {
      onProblem(problemOf(error));
      keep();
    },
  });
  const label = `${order.side} ${marketLabel(order.market)} ${order.id.slice(0, 8)}`;

  if (cancel.isPending) return <CancellingButton />;
  if (!confirming) {
    return (
      // Its own key: a remount is what makes autoFocus take effect after an error.
      <Button
        key="trigger"
        variant="secondary"
        autoFocus={refocus}
        size="sm"
        className="w-full"
        aria-label={`Cancel order ${label}`}
        onClick={() => setConfirming(true)}
      >
        Cancel
      </Button>
    );
  }
  return (
    <span
      role="group"
      aria-label={`Confirm cancel of order ${label}`}
      className="flex flex-col items-stretch gap-1"
      onKeyDown={(e) => {
        if (e.key === "Escape") keep();
      }}
    >
      <Button variant="secondary" size="sm" autoFocus onClick={keep}>
        Keep
      </Button>
      <Button variant="danger" size="sm" onClick={() => cancel.mutate()}>
        Cancel order
      </Button>
    </span>
  );
}
