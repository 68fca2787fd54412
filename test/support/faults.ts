/**
 * Faults between the dashboard and "the service": per method and path, for the next N requests,
 * a request is delayed, held, lost, answered with an error or reshaped. Every request is logged
 * (with the bearer token it carried), and every access token the token endpoint issued, so tests
 * can count what reached the service.
 *
 * One core, two doors: `faultyFetch` wraps a fetch in process (the routes project's runtime:
 * test/support/in-process.ts), and test/support/fault-proxy.ts serves the same on a loopback
 * port in front of a running app.
 */

export type Fault =
  /** Waits, then forwards (a create that lands after the client gave up), then answers if it still can. */
  | { kind: "delay"; ms: number }
  /** Never forwards, never answers: the request hangs until the client goes away. */
  | { kind: "hold" }
  /** Forwards, then never answers: the service acted, the answer is lost. */
  | { kind: "forward-then-hold" }
  /** Forwards, then answers `status` (500 by default) instead of the service's answer. */
  | { kind: "forward-then-status"; status?: number }
  /** Answers `status` (a problem) without forwarding, with `headers` (a Retry-After, say). */
  | { kind: "status"; status: number; headers?: Record<string, string> }
  /** Drops the connection without forwarding. */
  | { kind: "drop-before" }
  /** Forwards, then drops the connection instead of answering. */
  | { kind: "drop-after" }
  /** Answers 401 with `WWW-Authenticate: Bearer error="invalid_token"` without forwarding. */
  | { kind: "invalid-token" }
  /**
   * Forwards, then answers the service's JSON as `body` rewrites it (same status): a shape the
   * real service may send and our sandbox does not (a null ticker level, an alphanumeric id).
   */
  | { kind: "rewrite"; body: (json: any) => unknown };

export interface Match {
  /** Any method when absent. */
  method?: string;
  /** The exact pathname (query excluded), or a pattern tested against it. */
  path: string | RegExp;
}

export interface SeenRequest {
  method: string;
  path: string;
  search: string;
  /** The access token of its Authorization header, if any. */
  bearer?: string;
  /** For a token request: the scope it asked for ("" for none). */
  scope?: string;
  at: number;
  fault?: Fault["kind"];
  /** True once it was sent on to the sandbox. */
  forwarded: boolean;
  /** The status the client was answered with, when it was. */
  status?: number;
}

export interface IssuedToken {
  value: string;
  scope: string;
  at: number;
  expiresInSeconds?: number;
}

/** What the tests see of the faults and the traffic, whichever door they stand at. */
export interface Faults {
  /** The next `times` requests matching `match` meet `fault`. Rules are checked in the order given. */
  fail(match: Match, fault: Fault, times?: number): void;
  clearFaults(): void;
  /** Every request so far, oldest first. */
  readonly requests: readonly SeenRequest[];
  /** Every access token the token endpoint handed out. */
  readonly tokens: readonly IssuedToken[];
  count(match?: Match): number;
  /**
   * Resolves once `n` requests matching `match` have arrived (and, with `forwarded`, been
   * forwarded); with `since`, counting only requests from that index of `requests` on.
   */
  waitFor(
    match: Match,
    n?: number,
    options?: { forwarded?: boolean; since?: number; timeoutMs?: number },
  ): Promise<void>;
}

export const TOKEN_PATH = "/sandbox/oauth2/token";

export function matches(match: Match, method: string, path: string): boolean {
  if (match.method && match.method.toUpperCase() !== method) return false;
  return typeof match.path === "string" ? match.path === path : match.path.test(path);
}

/** The connection dropped: the proxy destroys its socket; in process, fetch's own network failure. */
export class Dropped extends Error {
  constructor() {
    super("the fault dropped the connection");
  }
}

interface Rule {
  match: Match;
  fault: Fault;
  left: number;
}

/** The time the faults keep: the machine's, or (in process) the runtime's clock a test moves. */
export interface FaultClock {
  /** Milliseconds since the epoch: what `at` is stamped with. */
  now(): number;
  /** Resolves once `ms` have passed: a "delay" waits on it. */
  wait(ms: number): Promise<void>;
}

const machineClock: FaultClock = {
  now: () => Date.now(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The core: `handle` passes a request on through `forward`, or meets the fault a rule gives it. */
export function createFaults(clock: FaultClock = machineClock) {
  let rules: Rule[] = [];
  const requests: SeenRequest[] = [];
  const tokens: IssuedToken[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());

  const recordToken = async (seen: SeenRequest, answer: Response) => {
    if (seen.path !== TOKEN_PATH || answer.status !== 200) return;
    try {
      const parsed = (await answer.clone().json()) as { access_token?: string; expires_in?: number };
      if (parsed.access_token) {
        tokens.push({
          value: parsed.access_token,
          scope: seen.scope ?? "",
          at: clock.now(),
          expiresInSeconds: parsed.expires_in,
        });
      }
    } catch {
      // not a token response
    }
  };

  const problem = (status: number, title: string, detail: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ type: "about:blank", title, status, detail }), {
      status,
      headers: { "content-type": "application/problem+json", ...headers },
    });

  /** Never settles until `signal` aborts (the client gave up), then rejects as fetch would. */
  const hang = (signal?: AbortSignal | null) =>
    new Promise<never>((_, reject) => {
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
    });

  /**
   * The answer to `request` (its body already read into `body`): the service's, through
   * `forward`, or the fault's. Throws Dropped for a dropped connection.
   */
  async function handle(
    request: Request,
    body: string,
    forward: () => Promise<Response>,
    signal?: AbortSignal | null,
  ): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const auth = request.headers.get("authorization");
    const seen: SeenRequest = {
      method,
      path: url.pathname,
      search: url.search,
      bearer: auth?.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : undefined,
      at: clock.now(),
      forwarded: false,
      ...(url.pathname === TOKEN_PATH ? { scope: new URLSearchParams(body).get("scope") ?? "" } : {}),
    };
    const rule = rules.find((r) => r.left > 0 && matches(r.match, method, url.pathname));
    if (rule) {
      rule.left--;
      seen.fault = rule.fault.kind;
    }
    requests.push(seen);
    notify();

    const pass = async () => {
      const answer = await forward();
      seen.forwarded = true;
      await recordToken(seen, answer);
      notify();
      return answer;
    };
    const answered = (answer: Response) => {
      seen.status = answer.status;
      return answer;
    };

    const fault = rule?.fault;
    switch (fault?.kind) {
      case undefined:
        return answered(await pass());
      case "delay":
        await clock.wait(fault.ms);
        return answered(await pass());
      case "hold":
        return hang(signal);
      case "forward-then-hold":
        await pass();
        return hang(signal);
      case "forward-then-status": {
        await pass();
        const status = fault.status ?? 500;
        return answered(problem(status, "Injected Failure", "the answer was lost"));
      }
      case "status":
        return answered(problem(fault.status, "Injected Failure", "injected", fault.headers));
      case "drop-before":
        throw new Dropped();
      case "drop-after":
        await pass();
        throw new Dropped();
      case "rewrite": {
        const up = await pass();
        const headers = new Headers(up.headers);
        headers.set("content-type", "application/json");
        headers.delete("content-encoding");
        headers.delete("content-length");
        return answered(new Response(JSON.stringify(fault.body(await up.json())), { status: up.status, headers }));
      }
      case "invalid-token":
        return answered(
          problem(401, "Unauthorized", "the access token is not valid", {
            "www-authenticate": 'Bearer realm="sandbox", error="invalid_token", error_description="revoked"',
          }),
        );
    }
  }

  const count = (match?: Match) =>
    match ? requests.filter((r) => matches(match, r.method, r.path)).length : requests.length;

  const faults: Faults = {
    fail: (match, fault, times = 1) => {
      rules.push({ match, fault, left: times });
    },
    clearFaults: () => {
      rules = [];
    },
    requests,
    tokens,
    count,
    waitFor: (match, n = 1, options = {}) =>
      new Promise<void>((resolve, reject) => {
        const done = () =>
          requests
            .slice(options.since ?? 0)
            .filter((r) => matches(match, r.method, r.path) && (!options.forwarded || r.forwarded)).length >= n;
        if (done()) return resolve();
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`fewer than ${n} ${match.method ?? ""} ${String(match.path)} requests reached the service`));
        }, options.timeoutMs ?? 10_000);
        waiters.add(check);
      }),
  };
  return { faults, handle };
}

/**
 * The faults in process: a fetch that meets them on its way to `target` (the sandbox served in
 * this process). A dropped connection is fetch's own network failure, as undici reports it.
 *
 * As over HTTP, the client giving up (its signal) ends its own fetch at once, and is news to
 * nobody else: a request already on its way (a delayed one included) still reaches the service.
 * With `clock` the runtime's (test/support/in-process.ts), a "delay" ends when the test moves
 * that clock past it (or when real time gets there first), and requests are stamped on it.
 */
export function faultyFetch(
  clock?: FaultClock,
): Faults & { fetch: typeof fetch; setTarget(target: typeof fetch): void } {
  const { faults, handle } = createFaults(clock);
  let target: typeof fetch | undefined;
  const faulty: typeof fetch = async (input, init) => {
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const request = new Request(input, { ...init, signal: undefined });
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.clone().text();
    const forward = () => {
      if (!target) throw new Error("the faults have no target yet");
      return target(request.clone());
    };
    const answer = handle(request, body, forward, signal).catch((error: unknown) => {
      if (!(error instanceof Dropped)) throw error;
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
      });
    });
    if (!signal) return answer;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  };
  return Object.assign(faults, { fetch: faulty, setTarget: (t: typeof fetch) => void (target = t) });
}
