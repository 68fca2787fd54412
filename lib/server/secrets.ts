import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * `given` (from the environment), or a secret generated on first start and kept, readable by
 * the owner only, in DATA_DIR/`name`, so a demo needs no setup and survives restarts.
 */
export function keptSecret(dataDir: string, name: string, given?: string): string {
  if (given) return given;
  const file = join(dataDir, name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch {
      // Another process wrote it first: use theirs.
    }
    return readFileSync(file, "utf8").trim();
  }
}
