import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { isRole } from "@/lib/roles";
import { env } from "../env";
import { demoUsersEnabled, verifyDemoUser } from "./demo-users";
import { authSecret } from "../secrets";
import { SignInThrottle } from "./throttle";
import type { AuditEvent } from "../audit";
import { runtime } from "../runtime";

const SESSION_SECONDS = 8 * 60 * 60;
const throttle = new SignInThrottle();

// Without NEXTAUTH_URL, next-auth must trust the Host header to build its URLs.
if (!env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

function credentialsProvider() {
  return CredentialsProvider({
    id: "credentials",
    name: "Demo user",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(credentials, req) {
      const email = (credentials?.email ?? "").trim().toLowerCase();
      const ip = firstForwarded(req?.headers?.["x-forwarded-for"]);
      const wait = throttle.lockedFor(email);
      if (wait > 0) {
        await audit({ action: "sign-in.failed", ip, subject: email, detail: { reason: "locked" } });
        throw new Error(`Too many failed attempts. Try again in ${Math.ceil(wait / 60_000)} minutes.`);
      }
      const user = await verifyDemoUser(email, credentials?.password ?? "");
      if (!user) {
        throttle.fail(email);
        await audit({ action: "sign-in.failed", ip, subject: email, detail: { reason: "wrong email or password" } });
        return null;
      }
      throttle.succeed(email);
      return { id: user.email, email: user.email, name: user.name, role: user.role };
    },
  });
}

/** Sign-ins, failures and sign-outs go to the audit trail. */
const audit = async (event: AuditEvent) => (await runtime()).audit.append(event);

const firstForwarded = (header: string | string[] | undefined) =>
  (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim() || null;

/** Staff sign-in through the organisation's OIDC provider; the role comes from a claim. */
function oidcProvider(): NextAuthOptions["providers"][number] {
  return {
    id: "oidc",
    name: "Single sign-on",
    type: "oauth",
    wellKnown: `${env.OIDC_ISSUER!.replace(/\/$/, "")}/.well-known/openid-configuration`,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    idToken: true,
    checks: ["pkce", "state"],
    authorization: { params: { scope: "openid email profile" } },
    profile(profile: Record<string, unknown>) {
      const claim = profile[env.OIDC_ROLE_CLAIM];
      const role = (Array.isArray(claim) ? claim.find(isRole) : claim) as unknown;
      return {
        id: String(profile.sub),
        email: String(profile.email ?? ""),
        name: String(profile.name ?? profile.email ?? profile.sub),
        role: isRole(role) ? role : undefined,
      };
    },
  };
}

export const authOptions: NextAuthOptions = {
  secret: authSecret(),
  session: { strategy: "jwt", maxAge: SESSION_SECONDS, updateAge: 60 * 60 },
  pages: { signIn: "/signin", error: "/signin" },
  providers: [...(demoUsersEnabled() ? [credentialsProvider()] : []), ...(env.OIDC_ISSUER ? [oidcProvider()] : [])],
  events: {
    async signIn({ user, account }) {
      await audit({
        action: "sign-in",
        actor: { email: user.email ?? "", role: String(user.role ?? "") },
        subject: user.email ?? null,
        detail: { provider: account?.provider ?? "unknown" },
      });
    },
    async signOut({ token }) {
      const email = typeof token?.email === "string" ? token.email : "";
      await audit({ action: "sign-out", actor: { email, role: String(token?.role ?? "") }, subject: email });
    },
  },
  callbacks: {
    // A user without a known role is refused rather than given a default.
    signIn: ({ user }) => isRole(user.role),
    jwt({ token, user }) {
      if (user) token.role = user.role;
      return token;
    },
    session({ session, token }) {
      if (session.user && isRole(token.role)) session.user.role = token.role;
      return session;
    },
  },
};
