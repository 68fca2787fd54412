import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { isRole } from "@/lib/shared/roles";
import { env } from "../env";
import type { Env } from "../env-schema";
import { demoUserCheck, demoUsersEnabled } from "./demo-users";
import { callerIp } from "./caller";
import { credentialsCheck } from "./credentials";
import { oidcIdentity } from "./identities";
import { oidcEmailRefusal, signInRedirect } from "./redirects";
import type { AuditEvent } from "../audit-trail";
import type { Runtime } from "../runtime";
import { nextAuthLogger } from "../ops/log";

const SESSION_SECONDS = 8 * 60 * 60;

// Without NEXTAUTH_URL (a demo), next-auth must trust the Host header to build its URLs; a real
// service's configuration requires NEXTAUTH_URL (env-schema.ts).
if (!env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

/** next-auth's options for the runtime `rt`: its configuration, its audit trail and sessions, its sign-in throttle. */
export function authOptionsFor(rt: Runtime): NextAuthOptions {
  let options = built.get(rt);
  if (!options) built.set(rt, (options = authOptions(rt)));
  return options;
}
const built = new WeakMap<Runtime, NextAuthOptions>();

function authOptions(rt: Runtime): NextAuthOptions {
  const { config } = rt;
  /** Sign-ins, failures and sign-outs go to the audit trail, with the caller's address. */
  const audit = (event: AuditEvent) => rt.audit.append({ ip: callerIp(), ...event });
  const checkCredentials = credentialsCheck({
    verify: demoUserCheck(config.DEMO_PASSWORD, rt.passwordCost),
    audit,
    checked: () => rt.metrics.passwordChecks.inc(),
    now: rt.clock.now,
  });
  return {
    secret: rt.authSecret,
    session: { strategy: "jwt", maxAge: SESSION_SECONDS, updateAge: 60 * 60 },
    pages: { signIn: "/signin", error: "/signin" },
    logger: nextAuthLogger,
    providers: [
      ...(demoUsersEnabled(config) ? [credentialsProvider(checkCredentials)] : []),
      ...(config.OIDC_ISSUER ? [oidcProvider(config)] : []),
    ],
    events: events(rt, audit),
    callbacks: callbacks(rt, audit),
  };
}

function credentialsProvider(checkCredentials: ReturnType<typeof credentialsCheck>) {
  return CredentialsProvider({
    id: "credentials",
    name: "Demo user",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(credentials) {
      const user = await checkCredentials({
        email: credentials?.email,
        password: credentials?.password,
        ip: callerIp(),
      });
      return user && { id: user.email, email: user.email, name: user.name, role: user.role };
    },
  });
}

/** Staff sign-in through the organisation's OIDC provider; the role comes from a claim. */
function oidcProvider(config: Env): NextAuthOptions["providers"][number] {
  return {
    id: "oidc",
    name: "Single sign-on",
    type: "oauth",
    wellKnown: `${config.OIDC_ISSUER!.replace(/\/$/, "")}/.well-known/openid-configuration`,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    idToken: true,
    checks: ["pkce", "state"],
    authorization: { params: { scope: "openid email profile" } },
    profile(profile: Record<string, unknown>) {
      const claim = profile[config.OIDC_ROLE_CLAIM];
      const role = (Array.isArray(claim) ? claim.find(isRole) : claim) as unknown;
      return {
        id: `${String(profile.iss ?? config.OIDC_ISSUER)} ${String(profile.sub)}`,
        email: String(profile.email ?? "").toLowerCase(),
        name: String(profile.name ?? profile.email ?? profile.sub),
        role: isRole(role) ? role : undefined,
      };
    },
  };
}

type Audit = (event: AuditEvent) => Promise<unknown>;

const events = (rt: Runtime, audit: Audit): NextAuthOptions["events"] => ({
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
    if (typeof token?.sid === "string") await rt.sessions.revoke(token.sid);
    const email = typeof token?.email === "string" ? token.email : "";
    await audit({ action: "sign-out", actor: { email, role: String(token?.role ?? "") }, subject: email });
  },
});

const callbacks = (rt: Runtime, audit: Audit): NextAuthOptions["callbacks"] => ({
  // A user without a known role is refused rather than given a default; an OIDC identity
  // also needs a verified email, and is the issuer and `sub` (identities.ts). Each refusal is audited.
  async signIn({ user, account, profile }) {
    const claims = profile as Record<string, unknown> | undefined;
    const oidc = account?.provider === "oidc";
    const emailRefusal = oidc ? oidcEmailRefusal(claims) : null;
    let refusal = emailRefusal ?? (isRole(user.role) ? null : "no known role");
    if (!refusal && oidc) {
      const identity = await oidcIdentity(rt.db, {
        issuer: String(claims?.iss ?? rt.config.OIDC_ISSUER),
        sub: String(claims?.sub ?? ""),
        email: String(claims?.email ?? ""),
      });
      // The same object goes on to the jwt callback and the signIn event: the bound email is the person.
      if ("email" in identity) user.email = identity.email;
      else refusal = identity.refusal;
    }
    if (!refusal) return true;
    await audit({
      action: "sign-in.failed",
      subject: user.email?.toLowerCase() || null,
      detail: { provider: account?.provider ?? "unknown", reason: refusal },
    });
    // Back to the sign-in page with the reason: AccessDenied reads "no dashboard role".
    if (emailRefusal) return "/signin?error=EmailNotVerified";
    return refusal === "no known role" ? false : "/signin?error=IdentityTaken";
  },
  redirect: signInRedirect,
  // At sign-in the session gets its row; the cookie carries the row's id.
  async jwt({ token, user, account }) {
    if (user && isRole(user.role)) {
      token.role = user.role;
      token.sid = await rt.sessions.start({
        email: user.email ?? "",
        role: user.role,
        provider: account?.provider ?? "unknown",
        ip: callerIp(),
      });
    }
    return token;
  },
  session({ session, token }) {
    if (session.user && isRole(token.role)) session.user.role = token.role;
    return session;
  },
});
