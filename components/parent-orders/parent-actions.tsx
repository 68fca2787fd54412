"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { actOnParentOrder, parentOrderKeys, type ParentAction } from "@/lib/client/parent-orders";
import { problemOf } from "@/lib/client/api";
import type { ParentOrder } from "@/lib/shared/parent-order";
import { isOpenParent } from "@/lib/shared/parent-order";
import { Button } from "../ui/button";
import { ProblemAlert } from "../ui/problem-alert";

const DONE: Record<ParentAction, string> = { pause: "paused", resume: "resumed", cancel: "cancelled" };

/**
 * Pause, resume and cancel, for the trader who asked or an admin. Cancel has a confirm step:
 * "Keep" takes the place and the focus of "Cancel", so a double click never cancels by itself.
 * A paused parent sends no child; a cancelled one sends none again (a child in flight finishes).
 */
export function ParentActions({ parent }: { parent: ParentOrder }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const act = useMutation({
    mutationFn: (action: ParentAction) => actOnParentOrder(parent.id, action),
    onSuccess: (next) => {
      client.setQueryData(parentOrderKeys.one(next.id), next);
      void client.invalidateQueries({ queryKey: parentOrderKeys.list });
      setConfirming(false);
    },
    onError: () => setConfirming(false),
  });
  const id = parent.id.slice(0, 8);
  if (!isOpenParent(parent.status)) return null;
  return (
    <div className="space-y-2" data-testid="parent-actions">
      <div className="flex flex-wrap gap-2">
        {parent.status === "WORKING" && (
          <Button variant="secondary" disabled={act.isPending} onClick={() => act.mutate("pause")}>
            Pause
          </Button>
        )}
        {parent.status === "PAUSED" && (
          <Button disabled={act.isPending} onClick={() => act.mutate("resume")}>
            Resume
          </Button>
        )}
        {confirming ? (
          <span
            role="group"
            aria-label={`Confirm cancel of parent order ${id}`}
            className="flex flex-wrap gap-2"
            onKeyDown={(e) => {
              if (e.key === "Escape") setConfirming(false);
            }}
          >
            <Button variant="secondary" autoFocus onClick={() => setConfirming(false)}>
              Keep working
            </Button>
            <Button variant="danger" disabled={act.isPending} onClick={() => act.mutate("cancel")}>
              Cancel parent order
            </Button>
          </span>
        ) : (
          <Button
            variant="secondary"
            disabled={act.isPending}
            aria-label={`Cancel parent order ${id}`}
            onClick={() => setConfirming(true)}
          >
            Cancel
          </Button>
        )}
      </div>
      {act.isSuccess && (
        <p role="status" className="text-xs text-ink-muted">
          Parent order {DONE[act.variables]}.
        </p>
      )}
      {act.error && <ProblemAlert problem={problemOf(act.error)} title={`Not ${DONE[act.variables ?? "pause"]}`} />}
    </div>
  );
}
