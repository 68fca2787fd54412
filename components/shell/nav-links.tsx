"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useApprovalFeed, waitingOn } from "@/lib/client/approval-feed";
import { can, type Role } from "@/lib/shared/roles";

const LINKS = [
  { href: "/orders", label: "Orders" },
  { href: "/transfers", label: "Transfers" },
  { href: "/balances", label: "Balances" },
  { href: "/approvals", label: "Approvals" },
  { href: "/activity", label: "Activity" },
  { href: "/policies", label: "Policies", admin: true },
  { href: "/sessions", label: "Sessions", admin: true },
];

export function NavLinks({ role, email }: { role: Role; email: string }) {
  const path = usePathname();
  const feed = useApprovalFeed();
  const waiting = feed.data ? waitingOn(feed.data, { email, role }).length : 0;
  return (
    <ul className="flex gap-1 md:flex-wrap">
      {LINKS.filter((l) => !l.admin || can(role, "policies:edit")).map((l) => {
        const active = path.startsWith(l.href);
        const count = l.href === "/approvals" && waiting > 0 ? waiting : 0;
        return (
          <li key={l.href}>
            <Link
              href={l.href}
              aria-current={active ? "page" : undefined}
              className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-1 text-sm font-medium md:py-2 ${active ? "bg-brand-soft text-brand" : "text-ink-muted hover:bg-surface-sunken hover:text-ink"}`}
            >
              {l.label}
              {count > 0 && (
                <span
                  data-testid="approvals-count"
                  className="rounded-full bg-warn-soft px-1.5 text-xs font-bold text-warn tabular-nums ring-1 ring-warn/40"
                >
                  {count}
                  <span className="sr-only"> waiting</span>
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
