/**
 * Runs once when the server starts: a bad configuration stops it here, with every problem
 * listed; the runtime is built (the embedded sandbox with its market maker starts quoting);
 * journal entries a crash left pending are reconciled with the service; and approval requests
 * past their time are expired (and audited) every half minute, whether or not anyone looks.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { runtime } = await import("./lib/server/runtime");
  const { reconcileInBackground } = await import("./lib/server/reconcile");
  const { expireInBackground } = await import("./lib/server/approvals");
  const rt = await runtime();
  reconcileInBackground(rt);
  expireInBackground(rt);
}
