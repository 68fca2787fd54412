"use client";

import { usePathname } from "next/navigation";
import { useApprovalFeed, waitingOn } from "@/lib/client/approval-feed";
import type { Role } from "@/lib/shared/roles";
import { NavLink } from "./nav-link";
import { pagesFor } from "./nav-pages";
import { PageMenu } from "./page-menu";

/**
 * The pages: in a row from `md` up; on a phone, behind the Menu button (PageMenu), so every page
 * is one press away and none sits off-screen in a row that scrolls.
 */
export function NavLinks({ role, email }: { role: Role; email: string }) {
  const path = usePathname();
  const feed = useApprovalFeed();
  const waiting = feed.data ? waitingOn(feed.data, { email, role }).length : 0;
  const pages = pagesFor(role);
  return (
    <>
      <ul className="flex flex-wrap gap-1 max-md:hidden">
        {pages.map((page) => (
          <li key={page.href}>
            {/* Narrower on a tablet: an admin's nine pages and Notices stay one row at 768 px. */}
            <NavLink page={page} path={path} waiting={waiting} className="inline-flex px-1.5 py-2 lg:px-3" />
          </li>
        ))}
      </ul>
      <PageMenu pages={pages} path={path} waiting={waiting} />
    </>
  );
}
