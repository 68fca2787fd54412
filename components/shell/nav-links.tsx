"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/orders", label: "Orders" },
  { href: "/transfers", label: "Transfers" },
  { href: "/balances", label: "Balances" },
  { href: "/activity", label: "Activity" },
];

export function NavLinks() {
  const path = usePathname();
  return (
    <ul className="flex gap-1">
      {LINKS.map((l) => {
        const active = path.startsWith(l.href);
        return (
          <li key={l.href}>
            <Link
              href={l.href}
              aria-current={active ? "page" : undefined}
              className={`rounded-md px-3 py-2 text-sm font-medium ${active ? "bg-brand-soft text-brand" : "text-ink-muted hover:bg-surface-sunken hover:text-ink"}`}
            >
              {l.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
