/**
 * Runs once when the server starts: requests are stamped with their connection's address; a bad configuration stops it here, with every problem
 * listed; the runtime is built (the embedded sandbox with its market maker starts quoting);
 * journal entries a crash left pending are reconciled with the service; and approval requests
 * past their time are expired (and audited) every half minute, whether or not anyone looks.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First, so every request carries its connection's address (the caller's IP for throttling).
  const { stampPeerAddresses } = await import("./lib/server/peer-address");
  stampPeerAddresses();
  const { runtime } = await import("./lib/server/runtime");
  const { reconcileInBackground } = await import("./lib/server/reconcile");
  const { expireInBackground } = await import("./lib/server/approvals");
  const rt = await runtime();
  reconcileInBackground(rt);
  expireInBackground(rt);
}
