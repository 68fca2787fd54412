/**
 * Runs once when the server starts: a bad configuration stops it here, with every
 * problem listed; the embedded sandbox (with its market maker) starts quoting, and the
 * dashboard's own calls to it are served in-process; and journal entries a crash left
 * pending are reconciled with the service.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/server/env");
  const { sandbox } = await import("./app/sandbox/runtime");
  const runtime = sandbox();
  if (runtime && env.service.isSandbox) {
    // The dashboard's own calls to its embedded sandbox stay in this process.
    const { serveSandbox } = await import("./lib/sandbox/http/serve");
    const { serveServiceInProcess } = await import("./lib/server/service/upstream");
    serveServiceInProcess(env.service.baseUrl, (request) => serveSandbox(request, runtime));
  }
  const { reconcileInBackground } = await import("./lib/server/service/reconcile");
  reconcileInBackground();
}
