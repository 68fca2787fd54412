import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the server learns about one HTTP request while handling it, for the request's log line:
 * who it was (once the session is read) and the calls it made to the service. Set up when the
 * request arrives (lib/server/http/incoming.ts) and found again anywhere below it, through
 * AsyncLocalStorage, without passing it along.
 */
export interface RequestContext {
  /** X-Request-Id: a trusted proxy's, or made here; echoed in the response. */
  id: string;
  user?: { email: string; role: string };
  /** The personal API token the request acts through (issue 28): every audit entry written for it names it. */
  token?: { id: string; name: string };
  /** Calls to the service made on this request's behalf, and their time in ms. */
  upstream: { calls: number; ms: number };
}

/**
 * One store for the process, kept on globalThis: Next loads server modules more than once (for
 * instrumentation.ts and for the routes), and a request entered through one copy must be found
 * through the others.
 */
const SLOT = Symbol.for("treasury-dashboard.request-context");
const holder = globalThis as { [SLOT]?: AsyncLocalStorage<RequestContext> };
const store = (holder[SLOT] ??= new AsyncLocalStorage<RequestContext>());

export const newRequestContext = (id: string): RequestContext => ({ id, upstream: { calls: 0, ms: 0 } });

/** Runs `fn` (and everything it starts) as part of the request `context`. */
export const inRequest = <T>(context: RequestContext, fn: () => T): T => store.run(context, fn);

/**
 * Runs `fn` (and everything it starts) outside any request: work a request only wakes (the batch
 * sender's pass) is not that request's, and neither its log lines nor its audit entries say so.
 */
export const outsideRequest = <T>(fn: () => T): T => store.exit(fn);

/** The request being handled, or undefined outside any (start-up work, the watcher). */
export const currentRequest = (): RequestContext | undefined => store.getStore();

/** The signed-in staff member of the request being handled. */
export function noteUser(user: { email: string; role: string }): void {
  const context = store.getStore();
  if (context) context.user = { email: user.email, role: user.role };
}

/** The personal API token the request being handled acts through. */
export function noteToken(token: { id: string; name: string }): void {
  const context = store.getStore();
  if (context) context.token = { id: token.id, name: token.name };
}

/** One call to the service, made for the request being handled (if any). */
export function noteUpstreamCall(ms: number): void {
  const context = store.getStore();
  if (!context) return;
  context.upstream.calls += 1;
  context.upstream.ms += ms;
}
