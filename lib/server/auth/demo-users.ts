import "server-only";
import type { Role } from "@/lib/shared/roles";
import { demoUsersOn, type Env } from "../env-schema";
import { hashPassword, PASSWORD_COST, verifyPassword, type PasswordCost, type PasswordHash } from "./password";

export interface StaffUser {
  email: string;
  name: string;
  role: Role;
}

export const DEMO_USERS: readonly StaffUser[] = [
  { email: "admin@example.com", name: "Avery Admin", role: "admin" },
  { email: "trader@example.com", name: "Taylor Trader", role: "trader" },
  { email: "ops@example.com", name: "Oakley Ops", role: "ops" },
  { email: "approver@example.com", name: "Alex Approver", role: "approver" },
  { email: "viewer@example.com", name: "Val Viewer", role: "viewer" },
];

/**
 * Demo users exist while the dashboard talks to its embedded sandbox, or when
 * DEMO_USERS=on; never silently against a real deployment.
 */
export const demoUsersEnabled = (config: Env): boolean => demoUsersOn(config);

/**
 * The check of the demo users' password (DEMO_PASSWORD): the demo user with this email and
 * password, or null. Only the hash is kept; scrypt's cost makes guessing slow even offline.
 * Always spends the hashing time, off the main thread.
 */
export function demoUserCheck(demoPassword: string, cost: PasswordCost = PASSWORD_COST) {
  let hash: Promise<PasswordHash> | undefined;
  return async function verifyDemoUser(email: string, password: string): Promise<StaffUser | null> {
    const user = DEMO_USERS.find((u) => u.email === email.trim().toLowerCase());
    const ok = await verifyPassword(password, await (hash ??= hashPassword(demoPassword, cost)));
    return user && ok ? user : null;
  };
}
