/** Runs once when the server starts: a bad configuration stops it here, with every problem listed. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    await import("./lib/server/env");
  }
}
