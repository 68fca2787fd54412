import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { RevokeSessionButton } from "@/components/sessions/revoke-session-button";
import { can } from "@/lib/shared/roles";
import { requireUser } from "@/lib/server/auth/require-user";
import { runtime } from "@/lib/server/runtime";

export const metadata: Metadata = { title: "Sessions" };

/** Admin: who is signed in now, from where, since when; each session can be ended. */
export default async function SessionsPage() {
  const user = await requireUser();
  if (!can(user.role, "sessions:manage")) redirect("/orders");
  const sessions = await (await runtime()).sessions.active();
  return (
    <div>
      <h1 className="mb-4 text-lg font-semibold">Active sessions</h1>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="text-ink-muted">
            <th className="py-2">User</th>
            <th>Role</th>
            <th>IP</th>
            <th>Started</th>
            <th>Last seen</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} data-row={s.id} className="border-t border-slate-200">
              <td className="py-2">{s.user_email}</td>
              <td>{s.user_role}</td>
              <td>{s.ip ?? "unknown"}</td>
              <td>
                <time dateTime={s.started_at}>{s.started_at.replace("T", " ").slice(0, 19)} UTC</time>
              </td>
              <td>
                <time dateTime={s.last_seen_at}>{s.last_seen_at.replace("T", " ").slice(0, 19)} UTC</time>
              </td>
              <td>
                <RevokeSessionButton id={s.id} user={s.user_email} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
