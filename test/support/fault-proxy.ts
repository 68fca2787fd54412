import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/**
 * An HTTP proxy on a loopback port between the dashboard and its own embedded sandbox,
 * that fails on request: per method and path, for the next N requests. It also logs
 * every request (with the bearer token it carried) and every access token the token
 * endpoint issued, so tests can count what reached "the service".
 *
 * Start it first, start the app with `proxy.env()`, then `proxy.setTarget(app.port)`:
 * the app's port is known only once it runs, and a restarted app gets a new one.
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

export interface FaultProxy {
  port: number;
  url: string;
  /** The app's environment for talking to the sandbox through this proxy. */
  env(clientSecret?: string): Record<string, string>;
  /** Where requests go: the app's port. */
  setTarget(port: number): void;
  /** The next `times` requests matching `match` meet `fault`. Rules are checked in the order given. */
  fail(match: Match, fault: Fault, times?: number): void;
  clearFaults(): void;
  /** Every request so far, oldest first. */
  readonly requests: readonly SeenRequest[];
  /** Every access token the token endpoint handed out through the proxy. */
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
  close(): Promise<void>;
}

export const TOKEN_PATH = "/sandbox/oauth2/token";

export function matches(match: Match, method: string, path: string): boolean {
  if (match.method && match.method.toUpperCase() !== method) return false;
  return typeof match.path === "string" ? match.path === path : match.path.test(path);
}

interface Rule {
  match: Match;
  fault: Fault;
  left: number;
}

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The body as sent, before Next's compression. */
function decoded(up: Upstream): Buffer {
  switch (up.headers["content-encoding"]) {
    case "gzip":
      return gunzipSync(up.body);
    case "br":
      return brotliDecompressSync(up.body);
    case "deflate":
      return inflateSync(up.body);
    default:
      return up.body;
  }
}

export async function startFaultProxy(): Promise<FaultProxy> {
  let target: number | undefined;
  let rules: Rule[] = [];
  const requests: SeenRequest[] = [];
  const tokens: IssuedToken[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());

  const forward = (req: IncomingMessage, body: Buffer): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      if (target === undefined) return reject(new Error("the proxy has no target yet"));
      const headers = { ...req.headers, host: `127.0.0.1:${target}` };
      delete headers.connection;
      const out = httpRequest(
        { host: "127.0.0.1", port: target, method: req.method, path: req.url, headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on("error", reject);
        },
      );
      out.on("error", reject);
      out.end(body);
    });

  const answer = (
    res: ServerResponse,
    seen: SeenRequest,
    status: number,
    headers: IncomingHttpHeaders,
    body: Buffer,
  ) => {
    if (res.destroyed || res.writableEnded) return;
    const h = { ...headers };
    delete h["transfer-encoding"];
    delete h.connection;
    delete h["keep-alive"];
    h["content-length"] = String(body.length);
    seen.status = status;
    res.writeHead(status, h as Record<string, string | string[]>);
    res.end(body);
  };

  const problem = (status: number, title: string, detail: string) =>
    Buffer.from(JSON.stringify({ type: "about:blank", title, status, detail }));
  const problemHeaders = { "content-type": "application/problem+json" };

  const recordToken = (seen: SeenRequest, up: Upstream) => {
    if (seen.path !== TOKEN_PATH || up.status !== 200) return;
    try {
      const parsed = JSON.parse(decoded(up).toString("utf8")) as { access_token?: string; expires_in?: number };
      if (parsed.access_token) {
        tokens.push({
          value: parsed.access_token,
          scope: seen.scope ?? "",
          at: Date.now(),
          expiresInSeconds: parsed.expires_in,
        });
      }
    } catch {
      // not a token response
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://proxy");
    const method = req.method ?? "GET";
    const auth = req.headers.authorization;
    const seen: SeenRequest = {
      method,
      path: url.pathname,
      search: url.search,
      bearer: auth?.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : undefined,
      at: Date.now(),
      forwarded: false,
      ...(url.pathname === TOKEN_PATH ? { scope: new URLSearchParams(body.toString("utf8")).get("scope") ?? "" } : {}),
    };
    const rule = rules.find((r) => r.left > 0 && matches(r.match, method, url.pathname));
    if (rule) {
      rule.left--;
      seen.fault = rule.fault.kind;
    }
    requests.push(seen);
    notify();

    const pass = async (): Promise<Upstream | undefined> => {
      try {
        const up = await forward(req, body);
        seen.forwarded = true;
        recordToken(seen, up);
        notify();
        return up;
      } catch {
        answer(res, seen, 503, problemHeaders, problem(503, "Proxy Target Down", "the app behind the proxy is not up"));
        return undefined;
      }
    };

    const fault = rule?.fault;
    switch (fault?.kind) {
      case undefined: {
        const up = await pass();
        if (up) answer(res, seen, up.status, up.headers, up.body);
        return;
      }
      case "delay": {
        await new Promise((r) => setTimeout(r, fault.ms));
        const up = await pass();
        if (up) answer(res, seen, up.status, up.headers, up.body);
        return;
      }
      case "hold":
        return; // the client's time limit (or the proxy's close) ends it
      case "forward-then-hold":
        await pass();
        return;
      case "forward-then-status": {
        if (!(await pass())) return;
        const status = fault.status ?? 500;
        answer(res, seen, status, problemHeaders, problem(status, "Injected Failure", "the answer was lost"));
        return;
      }
      case "status":
        answer(
          res,
          seen,
          fault.status,
          { ...problemHeaders, ...fault.headers },
          problem(fault.status, "Injected Failure", "injected"),
        );
        return;
      case "drop-before":
        req.socket.destroy();
        return;
      case "drop-after":
        if (await pass()) req.socket.destroy();
        return;
      case "rewrite": {
        const up = await pass();
        if (!up) return;
        const rewritten = Buffer.from(JSON.stringify(fault.body(JSON.parse(decoded(up).toString("utf8")))));
        const headers = { ...up.headers, "content-type": "application/json" };
        delete headers["content-encoding"];
        answer(res, seen, up.status, headers, rewritten);
        return;
      }
      case "invalid-token":
        answer(
          res,
          seen,
          401,
          {
            ...problemHeaders,
            "www-authenticate": 'Bearer realm="sandbox", error="invalid_token", error_description="revoked"',
          },
          problem(401, "Unauthorized", "the access token is not valid"),
        );
        return;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const count = (match?: Match) =>
    match ? requests.filter((r) => matches(match, r.method, r.path)).length : requests.length;

  return {
    port,
    url,
    env: (clientSecret = "sandbox-secret") => ({
      SERVICE_BASE_URL: `${url}/sandbox/v2`,
      SERVICE_AUTH_URL: `${url}${TOKEN_PATH}`,
      SERVICE_CLIENT_ID: "dashboard",
      SERVICE_CLIENT_SECRET: clientSecret,
      // With SERVICE_BASE_URL set the app is "talking to a real service": its own sandbox (behind
      // this proxy) and the demo users must be asked for, the latter with a strong password.
      SANDBOX: "on",
      DEMO_USERS: "on",
      // A real service needs the audit trail's key given, never generated beside the trail.
      AUDIT_SECRET: "an-audit-key-for-the-tests-of-32-chars",
    }),
    setTarget: (p) => {
      target = p;
    },
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
          reject(new Error(`the proxy saw fewer than ${n} ${match.method ?? ""} ${String(match.path)} requests`));
        }, options.timeoutMs ?? 10_000);
        waiters.add(check);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
