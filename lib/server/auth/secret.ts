import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env } from "../env";

/**
 * The session signing secret: NEXTAUTH_SECRET, or one generated on first start and kept
 * (readable by the owner only) under DATA_DIR, so sessions survive restarts with no setup.
 */
export function authSecret(): string {
  return (cached ??= loadSecret());
}

// Read once: it is asked for on every API request.
let cached: string | undefined;

function loadSecret(): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  const file = join(env.DATA_DIR, "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(env.DATA_DIR, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch {
      // Another process wrote it first: use theirs.
    }
    return readFileSync(file, "utf8").trim();
  }
}
