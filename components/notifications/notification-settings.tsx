"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { api, problemOf } from "@/lib/client/api";

/** What `GET` and `PUT /api/notifications` speak: the person's own setting. */
export interface NotificationSettingsView {
  approval_emails: boolean;
}

const KEY = ["notifications"] as const;
const PATH = "/api/notifications";

/**
 * The person's email notifications (issue 30): one box, "Email me when a request waits for my
 * approval, and when my requests are decided", saved as soon as it is ticked or cleared
 * (PUT /api/notifications). It says "Saved" once the server has it; a save that fails says why
 * and the box shows what is saved. While the setting loads the box is there, busy and disabled,
 * so nothing moves when it arrives.
 */
export function NotificationSettings() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api<NotificationSettingsView>(PATH, { signal }),
  });
  // What the person asked for while it is being saved, set in the change itself: react-query tells
  // of a mutation a tick later, and a controlled box would spring back to the old value meanwhile.
  // Once settled the box shows what is saved again (the old value, if the save failed).
  const [asked, setAsked] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: (next: NotificationSettingsView) => api<NotificationSettingsView>(PATH, { method: "PUT", body: next }),
    onSuccess: (saved) => queryClient.setQueryData(KEY, saved),
    onSettled: () => setAsked(null),
  });
  const loaded = settings.data !== undefined;
  const checked = asked ?? Boolean(settings.data?.approval_emails);
  const failed = settings.isError && !loaded ? problemOf(settings.error) : null;

  return (
    <Card title="Email">
      <div className="space-y-3 text-sm">
        <label
          className={`flex min-h-11 items-start gap-3 rounded-md border border-slate-300 px-3 py-2 ${loaded ? "" : "text-ink-muted"}`}
        >
          <input
            type="checkbox"
            checked={checked}
            disabled={!loaded || save.isPending}
            aria-describedby="approval-emails-note"
            data-loaded={loaded}
            onChange={(e) => {
              setAsked(e.target.checked);
              save.mutate({ approval_emails: e.target.checked });
            }}
            className="mt-0.5 size-4 shrink-0"
          />
          <span className="min-w-0">
            <span className="font-medium">
              Email me when a request waits for my approval, and when my requests are decided
            </span>
            <span id="approval-emails-note" className="block text-xs text-ink-muted">
              An email says what is asked, how much, who asked and when it expires, with a link to the request. Nothing
              is ever approved from an email: you decide here.
            </span>
          </span>
        </label>
        <p role="status" data-testid="notifications-saved" className="min-h-5 font-medium text-buy">
          {save.isSuccess && !save.isPending
            ? `Saved: ${save.data.approval_emails ? "you will get these emails." : "you will not get these emails."}`
            : ""}
        </p>
        {save.isError && (
          <p role="alert" className="font-medium text-sell">
            Not saved: {problemOf(save.error).detail ?? problemOf(save.error).title}. Your setting is as shown; try
            again.
          </p>
        )}
        {failed && (
          <div role="alert" className="space-y-2">
            <p className="font-medium text-sell">Could not read your setting: {failed.detail ?? failed.title}.</p>
            <Button variant="secondary" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
}
