import { cookies } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { ApprovalNotices } from "@/components/approvals/lazy-approval-notices";
import { Providers } from "@/components/providers";
import { KeyboardShortcuts } from "@/components/shell/keyboard-shortcuts";
import { LiveUpdates } from "@/components/shell/live-updates";
import { NavLinks } from "@/components/shell/nav-links";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { SandboxBadge } from "@/components/ui/sandbox-badge";
import { ThemeToggle } from "@/lib/client/theme";
import { TimeZoneToggle } from "@/lib/client/time-zone";
import { requireUser } from "@/lib/server/auth/require-user";
import { env } from "@/lib/server/env";
import { THEME_COOKIE, themeClass } from "@/lib/shared/theme-choice";

export const dynamic = "force-dynamic";

/**
 * The signed-in shell: navigation, who is signed in and as what, the sandbox badge, the time
 * zone and theme choices, and the keyboard shortcuts.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const theme = themeClass((await cookies()).get(THEME_COOKIE)?.value) ?? "system";
  return (
    <Providers user={user.email}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-surface">
        <nav aria-label="Main" className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-4 px-4 py-3">
          <Link href="/orders" className="flex items-center gap-2 font-bold">
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src="/logo.svg" alt="" width={24} height={24} />
            Treasury Dashboard
          </Link>
          {env.service.isSandbox && <SandboxBadge />}
          <NavLinks role={user.role} email={user.email} />
          <LiveUpdates />
          <div className="ml-auto flex flex-wrap items-center justify-end gap-3 text-sm">
            <TimeZoneToggle />
            <ThemeToggle cookieChoice={theme} />
            <KeyboardShortcuts />
            <span className="text-right leading-tight">
              <span className="block font-medium">{user.name}</span>
              <span className="block text-xs text-ink-muted">
                {user.email} · <span data-testid="role">{user.role}</span>
              </span>
            </span>
            <SignOutButton />
          </div>
        </nav>
      </header>
      <ApprovalNotices email={user.email} />
      <main id="main" className="mx-auto max-w-screen-2xl px-4 py-6">
        {children}
      </main>
    </Providers>
  );
}
