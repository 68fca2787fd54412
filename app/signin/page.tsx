import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SandboxBadge } from "@/components/ui/sandbox-badge";
import { DEMO_USERS, demoUsersEnabled } from "@/lib/server/auth/demo-users";
import { sameOriginPath } from "@/lib/server/auth/redirects";
import { currentUser } from "@/lib/server/auth/session";
import { runtime } from "@/lib/server/runtime";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only paths inside the dashboard may be returned to after sign-in. */
const safeCallback = sameOriginPath;

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { callbackUrl, error, signed_out: signedOut } = await searchParams;
  if (await currentUser()) redirect(safeCallback(callbackUrl));
  const { config } = await runtime();
  const demoUsers = demoUsersEnabled(config) ? DEMO_USERS.map(({ email, role }) => ({ email, role })) : [];
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-surface p-8 shadow-sm">
        <div className="mb-6 flex items-center justify-between">
          <h1 className="text-xl font-bold">Treasury Dashboard</h1>
          {config.service.isSandbox && <SandboxBadge />}
        </div>
        <SignInForm
          demoUsers={demoUsers}
          oidc={Boolean(config.OIDC_ISSUER)}
          callbackUrl={safeCallback(callbackUrl)}
          initialError={error}
          notice={signedOut === "1" ? "You are signed out." : undefined}
        />
      </div>
    </main>
  );
}
