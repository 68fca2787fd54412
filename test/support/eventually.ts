// Apart from dashboard.ts (which re-exports it) so that what runs outside vitest (the desk's
// seed, in the benches too) polls with it without loading vitest or the back end.

/** Polls `probe` every `everyMs` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = "condition",
  everyMs = 100,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
