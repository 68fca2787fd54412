import { can, type Role } from "@/lib/shared/roles";

export interface NavPage {
  href: string;
  label: string;
  admin?: boolean;
}

const PAGES: NavPage[] = [
  { href: "/orders", label: "Orders" },
  { href: "/transfers", label: "Transfers" },
  { href: "/batches", label: "Batches" },
  { href: "/balances", label: "Balances" },
  { href: "/approvals", label: "Approvals" },
  { href: "/activity", label: "Activity" },
  { href: "/policies", label: "Policies", admin: true },
  { href: "/sessions", label: "Sessions", admin: true },
  { href: "/webhooks", label: "Webhooks", admin: true },
];

/** The pages `role` may open, in the navigation's order: Policies, Sessions and Webhooks for admins only. */
export const pagesFor = (role: Role): NavPage[] => PAGES.filter((p) => !p.admin || can(role, "policies:edit"));
