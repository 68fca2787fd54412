import type { NavPage } from "./nav-pages";

/**
 * The person's own pages, under their menu rather than in the row of the desk's pages: beside
 * their name from `md` up (AccountLink), at the end of the phone's Menu (PageMenu).
 */
export const ACCOUNT_PAGES: NavPage[] = [
  { href: "/tokens", label: "API tokens" },
  { href: "/notifications", label: "Notifications" },
  { href: "/api-docs", label: "API docs" },
];
