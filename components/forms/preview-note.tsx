"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { useProfileNames } from "@/lib/client/profile-names";
import { useTimeZone } from "@/lib/client/time-zone";
import { holdWords, type CreatePreview } from "@/lib/shared/create-preview";
import { formatPrice, formatTime, formatUsd } from "@/lib/shared/format";
import { inDeskWords } from "./server-problem";

/**
 * The review's account of what the desk's controls will do, from the back end's dry run
 * (lib/client/create-preview.ts): its worth, and whether it will be sent at once, wait for an
 * approver (the rule, the rolling total that reached it, who may approve, until when), or be
 * refused (which limit, in the desk's words). The send is weighed again; this says what to expect.
 */
export function PreviewNote({ preview }: { preview: UseQueryResult<CreatePreview> }) {
  const { profiles } = useProfileNames();
  const { zone } = useTimeZone();
  if (preview.isPending) {
    return (
      <p className="text-sm text-ink-muted" data-testid="controls-note" aria-busy="true">
        Checking the desk&apos;s controls…
      </p>
    );
  }
  if (preview.isError) {
    return (
      <p className="text-sm text-warn" data-testid="controls-note">
        The desk&apos;s controls could not be checked now; they weigh the request when it is sent.
      </p>
    );
  }
  const p = preview.data;
  return (
    <div className="space-y-1 text-sm" data-testid="controls-note" data-outcome={p.outcome}>
      {p.value_usd !== null && <p>Worth about {formatUsd(p.value_usd)}.</p>}
      {p.weighed_as_transfer && (
        <p data-testid="weighed-as-transfer">
          It settles into another profile, so it moves money as a transfer does: the transfer limits and rules weigh it
          too.
        </p>
      )}
      {p.outcome === "send" && <p data-testid="sent-at-once">It is sent at once: no approval is needed.</p>}
      {p.outcome === "hold" && (
        <div className="space-y-1 font-semibold text-warn" data-testid="needs-approval">
          {holdWords(p.hold, formatTime(p.hold.expires_at, zone)).map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      {p.outcome === "refuse" && (
        <p role="alert" className="font-semibold text-sell" data-testid="will-refuse">
          The desk will refuse it: {inDeskWords(p.problem, p.kind, profiles).detail ?? p.problem.title}
        </p>
      )}
      {p.price_guard && (
        <p className="text-warn" data-testid="guard-ahead">
          It would trade {p.price_guard.deviation_percent}% from the mid of {formatPrice(p.price_guard.mid)}, past the
          desk&apos;s {p.price_guard.limit_percent}% guard: you will be asked to type the market&apos;s name.
        </p>
      )}
    </div>
  );
}
