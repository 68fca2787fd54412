"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { Bars } from "@/components/ui/loading-shape";
import { TableError } from "@/components/ui/table-message";
import { api } from "@/lib/client/api";
import { Time } from "@/lib/client/time-zone";
import type { ApiTokenView } from "@/lib/shared/api-tokens";
import { RevokeTokenButton } from "./revoke-token-button";
import { tokenKeys } from "./token-keys";

export type TokenStatus = "active" | "expired" | "revoked";

export const tokenStatus = (t: ApiTokenView, now = Date.now()): TokenStatus =>
  t.revoked_at ? "revoked" : Date.parse(t.expires_at) <= now ? "expired" : "active";

const STATUS_TONE: Record<TokenStatus, string> = {
  active: "bg-buy-soft text-buy",
  expired: "border border-dashed border-slate-400 bg-surface text-slate-700",
  revoked: "bg-slate-200 text-slate-700",
};

/**
 * The person's tokens, newest first (an admin: everyone's, with an Owner column): what each may
 * do, when it was made, when it expires, when it was last used, its status, and Revoke. A row is
 * a card on a phone (nothing scrolls sideways at 390 px) and a table row from `lg` up, as the
 * sessions page's; the times wrap inside their column rather than widen it.
 */
export function TokensTable({ admin }: { admin: boolean }) {
  const tokens = useQuery({
    queryKey: tokenKeys.list,
    queryFn: ({ signal }) => api<{ items: ApiTokenView[] }>("/api/tokens", { signal }).then((r) => r.items),
  });
  const row = admin ? ROW_ADMIN : ROW;
  const caption = admin ? "API tokens of everyone" : "Your API tokens";
  let body: ReactNode;
  if (tokens.isError && !tokens.data)
    body = <TableError error={tokens.error} what="the tokens" onRetry={() => tokens.refetch()} />;
  else if (!tokens.data) body = <Bars count={3} className="h-8" gap="gap-2" />;
  else if (tokens.data.length === 0)
    body = <p className="text-sm text-ink-muted">No tokens yet. A token made above shows here.</p>;
  else
    body = (
      <div role="table" aria-label={caption} className="text-sm">
        <div role="rowgroup" className="hidden lg:block">
          <div role="row" className={`${row} py-2 text-ink-muted`}>
            <span role="columnheader">Name</span>
            {admin && <span role="columnheader">Owner</span>}
            <span role="columnheader">Scopes</span>
            <span role="columnheader">Created</span>
            <span role="columnheader">Expires</span>
            <span role="columnheader">Last used</span>
            <span role="columnheader">Status</span>
            <span role="columnheader">
              <span className="sr-only">Actions</span>
            </span>
          </div>
        </div>
        <div role="rowgroup">
          {tokens.data.map((t) => {
            const status = tokenStatus(t);
            return (
              <div
                role="row"
                key={t.id}
                data-row={t.id}
                data-status={status}
                className={`${row} border-t border-slate-200 py-2`}
              >
                <span role="cell" className="min-w-0 break-words font-medium lg:font-normal">
                  {t.name}
                </span>
                {admin && (
                  <Cell label="Owner">
                    <span className="break-all">{t.owner_email ?? "—"}</span>
                  </Cell>
                )}
                <Cell label="Scopes">{t.scopes.join(", ")}</Cell>
                <Cell label="Created">
                  <Time iso={t.created_at} />
                </Cell>
                <Cell label="Expires">
                  <Time iso={t.expires_at} />
                </Cell>
                <Cell label="Last used">{t.last_used_at ? <Time iso={t.last_used_at} /> : "never"}</Cell>
                <Cell label="Status">
                  <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${STATUS_TONE[status]}`}>{status}</span>
                </Cell>
                <span role="cell" className="lg:text-right">
                  {status === "active" && <RevokeTokenButton id={t.id} name={t.name} />}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    );
  return <Card title={caption}>{body}</Card>;
}

/**
 * One card per token on a phone; the table's columns from `lg` up (an admin's with Owner second).
 * The times may wrap at their space rather than widen their column.
 */
const ROW =
  "grid grid-cols-1 gap-1 lg:grid-cols-[minmax(7rem,1.2fr)_minmax(6rem,1fr)_repeat(3,minmax(6.5rem,1fr))_5rem_minmax(6rem,11rem)] lg:items-center lg:gap-3 lg:[&_time]:whitespace-normal";
const ROW_ADMIN =
  "grid grid-cols-1 gap-1 lg:grid-cols-[minmax(7rem,1.2fr)_minmax(9rem,1.3fr)_minmax(6rem,1fr)_repeat(3,minmax(6.5rem,1fr))_5rem_minmax(6rem,11rem)] lg:items-center lg:gap-3 lg:[&_time]:whitespace-normal";

/** A value with its column's name beside it on a phone, where there is no header row. */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span role="cell" className="flex min-w-0 gap-2">
      <span className="w-20 shrink-0 text-ink-muted lg:hidden">{label}</span>
      <span className="min-w-0">{children}</span>
    </span>
  );
}
