import { IntentLink } from "@/components/ui/intent-link";
import type { NavPage } from "./nav-pages";

/** One page's link, marked when it is the current page; Approvals with the count waiting on the person. */
export function NavLink({
  page,
  path,
  waiting,
  className,
  onClick,
}: {
  page: NavPage;
  path: string;
  waiting: number;
  className: string;
  onClick?: () => void;
}) {
  const active = path.startsWith(page.href);
  const count = page.href === "/approvals" ? waiting : 0;
  return (
    <IntentLink
      href={page.href}
      aria-current={active ? "page" : undefined}
      onClick={onClick}
      className={`${className} items-center gap-1.5 whitespace-nowrap rounded-md text-sm font-medium ${active ? "bg-brand-soft text-brand" : "text-ink-muted hover:bg-surface-sunken hover:text-ink"}`}
    >
      {page.label}
      {count > 0 && (
        <span
          data-testid="approvals-count"
          className="rounded-full bg-warn-soft px-1.5 text-xs font-bold text-warn tabular-nums ring-1 ring-warn/40"
        >
          {count}
          <span className="sr-only"> waiting</span>
        </span>
      )}
    </IntentLink>
  );
}
