import type { Metadata } from "next";
import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { RevokeSessionButton } from "@/components/sessions/revoke-session-button";
import { Time } from "@/lib/client/time-zone";
import { can } from "@/lib/shared/roles";
import { requireUser } from "@/lib/server/auth/require-user";
import { currentSession } from "@/lib/server/auth/session";
import { runtime } from "@/lib/server/runtime";

export const metadata: Metadata = { title: "Sessions" };

/**
 * Admin: who is signed in now, from where, since when; each session can be ended, after a
 * confirmation that says who is signed out. The admin's own session is marked. A row is a
 * card on a phone (nothing scrolls sideways at 390 px) and a table row from `md` up; times
 * are in the zone chosen in the header, each on one line.
 */
export default async function SessionsPage() {
  const user = await requireUser();
  if (!can(user.role, "sessions:manage")) redirect("/orders");
  const own = (await currentSession())?.sessionId;
  const sessions = await (await runtime()).sessions.active();
  return (
    <div>
      <h1 className="mb-4 text-lg font-semibold">Active sessions</h1>
      <div role="table" aria-label="Active sessions" className="text-sm">
        <div role="rowgroup" className="hidden md:block">
          <div role="row" className={`${ROW} py-2 text-ink-muted`}>
            <span role="columnheader">User</span>
            <span role="columnheader">Role</span>
            <span role="columnheader">IP</span>
            <span role="columnheader">Started</span>
            <span role="columnheader">Last seen</span>
            <span role="columnheader">
              <span className="sr-only">Actions</span>
            </span>
          </div>
        </div>
        <div role="rowgroup">
          {sessions.map((s) => (
            <div role="row" key={s.id} data-row={s.id} className={`${ROW} border-t border-slate-200 py-2`}>
              <span role="cell" className="min-w-0 break-words font-medium md:font-normal">
                {s.user_email}
                {s.id === own && (
                  <span
                    data-testid="own-session"
                    className="ml-2 rounded bg-brand-soft px-1.5 py-0.5 text-xs font-semibold text-brand"
                  >
                    This session
                  </span>
                )}
              </span>
              <Cell label="Role">{s.user_role}</Cell>
              <Cell label="IP">{s.ip ?? "unknown"}</Cell>
              <Cell label="Started">
                <Time iso={s.started_at} />
              </Cell>
              <Cell label="Last seen">
                <Time iso={s.last_seen_at} />
              </Cell>
              <span role="cell" className="md:text-right">
                <RevokeSessionButton id={s.id} user={s.user_email} own={s.id === own} />
              </span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** One card per session on a phone; the table's columns from `md` up. */
const ROW =
  "grid grid-cols-1 gap-1 md:grid-cols-[minmax(12rem,1.4fr)_5rem_minmax(6rem,0.8fr)_minmax(11rem,1fr)_minmax(11rem,1fr)_minmax(9rem,auto)] md:items-center md:gap-3";

/** A value with its column's name beside it on a phone, where there is no header row. */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span role="cell" className="flex min-w-0 gap-2">
      <span className="w-20 shrink-0 text-ink-muted md:hidden">{label}</span>
      <span className="min-w-0">{children}</span>
    </span>
  );
}
