"use client";

import { usePathname } from "next/navigation";
import { ACCOUNT_PAGES } from "./account-pages";
import { NavLink } from "./nav-link";

/**
 * The person's own pages beside their name and Sign out: API tokens from `md` up, Notifications and
 * API docs from `lg` (on a tablet's header they would push Sign out onto a row of its own; the
 * phone's Menu has them, and the API tokens page links to the API docs).
 */
export function AccountLinks() {
  const path = usePathname();
  return (
    <>
      {ACCOUNT_PAGES.map((page, i) => (
        <NavLink
          key={page.href}
          page={page}
          path={path}
          waiting={0}
          className={`${i === 0 ? "inline-flex" : "hidden lg:inline-flex"} px-2 py-1.5`}
        />
      ))}
    </>
  );
}
