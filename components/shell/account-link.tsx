"use client";

import { usePathname } from "next/navigation";
import { ACCOUNT_PAGES } from "./account-pages";
import { NavLink } from "./nav-link";

/** The person's own pages (API tokens, API docs) beside their name and Sign out, from `md` up. */
export function AccountLinks() {
  const path = usePathname();
  return (
    <>
      {ACCOUNT_PAGES.map((page) => (
        <NavLink key={page.href} page={page} path={path} waiting={0} className="inline-flex px-2 py-1.5" />
      ))}
    </>
  );
}
