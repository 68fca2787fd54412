/**
 * Runs once when the server starts: a bad configuration stops it here, with every
 * problem listed, and the embedded sandbox (with its market maker) starts quoting.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    await import("./lib/server/env");
    const { sandbox } = await import("./app/sandbox/runtime");
    sandbox();
  }
}
