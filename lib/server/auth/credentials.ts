import "server-only";
import type { AuditEvent } from "../audit-trail";
import type { StaffUser } from "./demo-users";
import { PASSWORD_MAX_CHARS } from "./password";
import { MAX_FAILURES_PER_IP, SignInThrottle, type Locked } from "./throttle";

const EMAIL_MAX_CHARS = 254;

/** What a sign-in with email and password needs from the rest of the server. */
export interface CredentialsDeps {
  /** The demo user these credentials name, or null; spends one hash's time either way. */
  verify(email: string, password: string): Promise<StaffUser | null>;
  audit(event: AuditEvent): Promise<unknown>;
  /** Counts each check against the hash (the metric dashboard_sign_in_password_checks_total). */
  checked(): void;
  now?: () => number;
}

export class SignInLocked extends Error {
  constructor(waitMs: number) {
    super(`Too many failed attempts. Try again in ${Math.ceil(waitMs / 60_000)} minutes.`);
  }
}

/**
 * next-auth's `authorize` for the demo users: the attempt is counted against the account and the
 * address before the password is checked, so parallel guesses cannot race past the lock (at most
 * five of them ever reach the hash). A locked account or address writes one audit entry per
 * lock, however many attempts meet it; each guess checked writes one, with the caller's address.
 */
export function credentialsCheck(deps: CredentialsDeps) {
  const now = deps.now ?? Date.now;
  const byAccount = new SignInThrottle(now);
  const byAddress = new SignInThrottle(now, MAX_FAILURES_PER_IP);

  const refuse = async (lock: Locked, event: AuditEvent): Promise<never> => {
    if (lock.newLock) await deps.audit(event);
    throw new SignInLocked(lock.waitMs);
  };

  return async function check(input: { email: unknown; password: unknown; ip: string | null }) {
    const email = String(input.email ?? "")
      .trim()
      .toLowerCase()
      .slice(0, EMAIL_MAX_CHARS);
    const password = String(input.password ?? "");
    const { ip } = input;
    const address = ip ? byAddress.attempt(ip) : null;
    if (address && !address.ok) {
      return refuse(address, { action: "sign-in.failed", ip, detail: { reason: "locked", locked: "address" } });
    }
    const account = byAccount.attempt(email);
    if (!account.ok) {
      address?.release();
      return refuse(account, {
        action: "sign-in.failed",
        ip,
        subject: email,
        detail: { reason: "locked", locked: "account" },
      });
    }
    if (password.length > PASSWORD_MAX_CHARS) {
      await deps.audit({ action: "sign-in.failed", ip, subject: email, detail: { reason: "password too long" } });
      return null;
    }
    deps.checked();
    const user = await deps.verify(email, password);
    if (!user) {
      await deps.audit({ action: "sign-in.failed", ip, subject: email, detail: { reason: "wrong email or password" } });
      return null;
    }
    byAccount.succeed(email);
    address?.release();
    return user;
  };
}
