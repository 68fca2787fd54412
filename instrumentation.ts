/**
 * Runs once when the server starts: a bad configuration stops it here, with every problem
 * listed; the runtime is built (the embedded sandbox with its market maker starts quoting);
 * and journal entries a crash left pending are reconciled with the service.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { runtime } = await import("./lib/server/runtime");
  const { reconcileInBackground } = await import("./lib/server/reconcile");
  reconcileInBackground(await runtime());
}
