import { parseEnv, type EnvSource } from "./env-schema";

/**
 * Fail fast: a bad configuration stops the process with exit status 1 and every variable's
 * problem, before it serves anything. An orchestrator then sees a failed start instead of a
 * healthy process answering 500.
 *
 * Written to stderr as plain lines, not through the logger: LOG_LEVEL may be the bad variable.
 * Kept free of "server-only" so scripts/check-config.ts can run it before `next start`.
 */
export function exitOnInvalidConfiguration(source: EnvSource = process.env): void {
  const problems = configurationProblems(source);
  if (!problems) return;
  process.stderr.write(`${problems}\nThe dashboard did not start: fix the configuration above and start it again.\n`);
  process.exit(1);
}

/** parseEnv's message naming each bad variable and its rule, or null when the configuration is valid. */
export function configurationProblems(source: EnvSource): string | null {
  try {
    parseEnv(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
