import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { isRole } from "@/lib/roles";
import { env } from "../env";
import { demoUsersEnabled, verifyDemoUser } from "./demo-users";
import { authSecret } from "../secrets";
import { MAX_FAILURES_PER_IP, SignInThrottle } from "./throttle";
import { oidcEmailRefusal, signInRedirect } from "./redirects";
import { clientIp } from "../origin";
import { PASSWORD_MAX_CHARS } from "./password";
import type { AuditEvent } from "../audit";
import { runtime } from "../runtime";
import { nextAuthLogger } from "../log";

const SESSION_SECONDS = 8 * 60 * 60;
const throttle = new SignInThrottle();
const ipThrottle = new SignInThrottle(Date.now, MAX_FAILURES_PER_IP);
const EMAIL_MAX_CHARS = 254;

// Without NEXTAUTH_URL, next-auth must trust the Host header to build its URLs.
if (!env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

function credentialsProvider() {
  return CredentialsProvider({
    id: "credentials",
    name: "Demo user",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(credentials, req) {
      const email = String(credentials?.email ?? "")
        .trim()
        .toLowerCase()
        .slice(0, EMAIL_MAX_CHARS);
      const password = String(credentials?.password ?? "");
      const ip = clientIp({ headers: new Headers(flatHeaders(req?.headers)) });
      const wait = Math.max(throttle.lockedFor(email), ip ? ipThrottle.lockedFor(ip) : 0);
      if (wait > 0) {
        await audit({ action: "sign-in.failed", ip, subject: email, detail: { reason: "locked" } });
        throw new Error(`Too many failed attempts. Try again in ${Math.ceil(wait / 60_000)} minutes.`);
      }
      const user = password.length > PASSWORD_MAX_CHARS ? null : await verifyDemoUser(email, password);
      if (!user) {
        throttle.fail(email);
        if (ip) ipThrottle.fail(ip);
        await audit({ action: "sign-in.failed", ip, subject: email, detail: { reason: "wrong email or password" } });
        return null;
      }
      throttle.succeed(email);
      return { id: user.email, email: user.email, name: user.name, role: user.role, ip };
    },
  });
}

/** next-auth hands authorize() the request's headers as a plain object. */
const flatHeaders = (headers: Record<string, unknown> | undefined): [string, string][] =>
  Object.entries(headers ?? {}).flatMap(([k, v]) =>
    typeof v === "string"
      ? [[k, v] as [string, string]]
      : Array.isArray(v)
        ? [[k, v.join(", ")] as [string, string]]
        : [],
  );

/** Sign-ins, failures and sign-outs go to the audit trail. */
const audit = async (event: AuditEvent) => (await runtime()).audit.append(event);

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
  logger: nextAuthLogger,
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
      // The cookie's row is revoked: a copy of the cookie kept elsewhere is worth nothing now.
      if (typeof token?.sid === "string") await (await runtime()).sessions.revoke(token.sid);
      const email = typeof token?.email === "string" ? token.email : "";
      await audit({ action: "sign-out", actor: { email, role: String(token?.role ?? "") }, subject: email });
    },
  },
  callbacks: {
    // A user without a known role is refused rather than given a default; an OIDC identity
    // also needs a verified email. Each refusal is audited.
    async signIn({ user, account, profile }) {
      const emailRefusal =
        account?.provider === "oidc" ? oidcEmailRefusal(profile as Record<string, unknown> | undefined) : null;
      const refusal = emailRefusal ?? (isRole(user.role) ? null : "no known role");
      if (!refusal) return true;
      await audit({
        action: "sign-in.failed",
        subject: user.email || null,
        detail: { provider: account?.provider ?? "unknown", reason: refusal },
      });
      // Back to the sign-in page with the reason: AccessDenied reads "no dashboard role".
      return emailRefusal ? "/signin?error=EmailNotVerified" : false;
    },
    redirect: signInRedirect,
    // At sign-in the session gets its row; the cookie carries the row's id.
    async jwt({ token, user, account }) {
      if (user && isRole(user.role)) {
        token.role = user.role;
        token.sid = await (
          await runtime()
        ).sessions.start({
          email: user.email ?? "",
          role: user.role,
          provider: account?.provider ?? "unknown",
          ip: typeof user.ip === "string" ? user.ip : null,
        });
      }
      return token;
    },
    session({ session, token }) {
      if (session.user && isRole(token.role)) session.user.role = token.role;
      return session;
    },
  },
};
