import { cookies } from "next/headers";
import { IntentLink } from "@/components/ui/intent-link";
import type { ReactNode } from "react";
import { ApprovalNotices } from "@/components/approvals/lazy-approval-notices";
import { Providers } from "@/components/providers";
import { AccountLinks } from "@/components/shell/account-link";
import { KeyboardShortcuts } from "@/components/shell/keyboard-shortcuts";
import { LiveUpdates } from "@/components/shell/live-updates";
import { NavLinks } from "@/components/shell/nav-links";
import { NoticesButton } from "@/components/shell/notices-button";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { SandboxBadge } from "@/components/ui/sandbox-badge";
import { NoticeToasts } from "@/components/ui/toasts";
import { ThemeToggle } from "@/lib/client/theme";
import { TimeZoneToggle } from "@/lib/client/time-zone";
import { requireUser } from "@/lib/server/auth/require-user";
import { runtime } from "@/lib/server/runtime";
import { THEME_COOKIE, themeClass } from "@/lib/shared/theme-choice";

export const dynamic = "force-dynamic";

/**
 * The signed-in shell: navigation, who is signed in and as what, the sandbox badge, the time
 * zone and theme choices, the keyboard shortcuts, and the session's Notices, whose toasts have a
 * place of their own in the header (NoticeToasts) and cover none of its controls nor the page's.
 * On a phone it keeps to three short rows (under 120 px): the mark, the badge, Notices and Sign
 * out; the Menu of every page, then the toasts' place; the choices and the role. From `md` up
 * two rows: the pages and Notices; the toasts' place, then the choices, the name, the person's own
 * pages (API tokens, Notifications, API docs) and Sign out (one Sign out shown at each width; on a phone the person's own
 * pages end the Menu).
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const { config } = await runtime();
  const theme = themeClass((await cookies()).get(THEME_COOKIE)?.value) ?? "system";
  return (
    <Providers user={user.email}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="relative border-b border-slate-200 bg-surface">
        <nav
          aria-label="Main"
          className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-4 gap-y-0.5 px-4 py-1 md:gap-4 md:py-3"
        >
          <IntentLink href="/orders" className="order-1 flex items-center gap-2 font-bold md:order-none">
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src="/logo.svg" alt="" width={24} height={24} />
            {/* On a phone the mark alone: the row keeps room for Notices beside Sign out. */}
            <span className="max-sm:sr-only">Treasury</span>
            <span className="max-md:hidden"> Dashboard</span>
          </IntentLink>
          {config.service.isSandbox && (
            <span className="order-1 md:order-none">
              <SandboxBadge />
            </span>
          )}
          <div className="order-3 md:order-none">
            <NavLinks role={user.role} email={user.email} />
          </div>
          <span className="order-2 ml-auto flex md:order-none md:ml-0">
            <NoticesButton />
          </span>
          <span className="order-4 md:order-none">
            <LiveUpdates />
          </span>
          {/* From md up a row of its own: the toasts' place, then the choices, the name and Sign out. On a
              phone its parts join the rows above (contents): the toasts beside Menu, the choices under them. */}
          <div className="max-md:contents md:flex md:basis-full md:flex-wrap md:items-center md:gap-4">
            <NoticeToasts className="order-3 min-h-8 flex-1 self-stretch md:min-w-80" />
            <div className="order-4 flex flex-wrap items-center gap-3 text-sm md:ml-auto md:justify-end">
              <TimeZoneToggle />
              <ThemeToggle cookieChoice={theme} />
              <KeyboardShortcuts />
              <span className="leading-tight md:text-right">
                <span className="block font-medium max-md:hidden">{user.name}</span>
                <span className="block text-xs text-ink-muted">
                  <span className="max-md:hidden">{user.email} · </span>
                  <span data-testid="role">{user.role}</span>
                </span>
              </span>
              <span className="max-md:hidden">
                <AccountLinks />
              </span>
              <span className="max-md:hidden">
                <SignOutButton />
              </span>
            </div>
          </div>
          <span className="order-2 md:hidden">
            <SignOutButton />
          </span>
          {/* On a phone, the end of the first row: Menu starts the second, with the toasts' place beside it. */}
          <span aria-hidden className="order-2 basis-full md:hidden" />
        </nav>
      </header>
      <ApprovalNotices email={user.email} />
      <main id="main" className="mx-auto max-w-screen-2xl px-4 py-6">
        {children}
      </main>
    </Providers>
  );
}
