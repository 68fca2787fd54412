import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  checkBody,
  checkPathMarket,
  checkQuery,
  DOCUMENTED_SCOPES,
  MARKET_DATA_MARKETS,
  operationAt,
  PUBLISHED_RATES,
  type Operation,
  type Query,
  type RateClass,
  type Refusal,
  type RefusalReason,
} from "./strict-double-reference";

/**
 * A strict double of the service: an HTTP server the dashboard is pointed at as "the real
 * service" (SERVICE_BASE_URL `{url}/v2`, SERVICE_AUTH_URL `{url}/oauth2/token`) that holds every
 * request to the published reference as the double reads it (strict-double-reference.ts), and
 * forwards what passes to the embedded sandbox behind it (`/sandbox/v2`, `/sandbox/oauth2/token`).
 *
 * It refuses, as the service does and recording each refusal with its reason:
 * - an endpoint, query parameter, value or filter combination the reference does not document,
 *   and a limit above the documented maximum (400; an unlisted market 404);
 * - a create's body field the reference does not document, or one ill-formed (400);
 * - a token request for a scope the credentials are not granted (400 invalid_scope, as OAuth
 *   words it), and one not a client credentials grant;
 * - a token it did not issue or that expired (401, without a WWW-Authenticate challenge), and a
 *   token without the operation's scope (403). A revoked token is answered 401 too, recorded as a
 *   refusal only when the caller sends it again after the double issued a newer one: the first
 *   401 is news to the client, the second is a client that did not listen;
 * - a caller past a published rate class (429, without Retry-After), and then every request of
 *   that caller for the penalty (five minutes at the service; short in tests).
 * And it answers in the reference's shapes, whatever the sandbox does: "0" for unused amounts in
 * List Orders, no next_page_cursor key on a last page, no Retry-After or challenge header, only
 * the markets the reference knows; a reused ref_id's 409 carries the record in meta.existing.
 *
 * It can also lose the answer to a chosen create (forwarded, then the connection dropped or left
 * hanging) so that a test can drive the dashboard's recovery: the retry then meets the record the
 * service made (a 409 with meta.existing, or the record listed by its ref_id).
 *
 * One double, two doors: `startStrictDouble` serves it on a loopback port in front of a running
 * app, `inProcessStrictDouble` as a fetch in front of the sandbox of the routes project's runtime
 * (test/support/in-process.ts's `wrapService`).
 */

export interface StrictDoubleOptions {
  /** How long a caller is refused after a 429 (the service: five minutes). */
  penaltyMs?: number;
  /** Requests per second per rate class (default: the published ones). */
  rates?: Partial<Record<RateClass, number>>;
  /** The scopes the client's credentials are granted (default: any the reference documents). */
  granted?: readonly string[];
  /** The markets the service lists (default: the reference's market data enum). */
  markets?: readonly string[];
}

export interface SeenCall {
  /** The reference's name of the operation; "token" for the token endpoint, "?" for none. */
  operation: string;
  method: string;
  path: string;
  search: string;
  at: number;
  /** The create's ref_id, when its body has one. */
  refId?: string;
  /** Sent on to the sandbox. */
  forwarded: boolean;
  /** The status answered; absent while in flight, or when the answer was lost. */
  status?: number;
  refusal?: RefusalReason;
  lost?: "drop" | "hold";
}

export interface RecordedRefusal extends Refusal {
  operation: string;
  method: string;
  path: string;
  search: string;
  at: number;
}

export type LostCreate = "Create Order" | "Create Internal Transfer";

/** What a test sees of the double, whichever door it stands at. */
export interface StrictDoubleState {
  readonly calls: readonly SeenCall[];
  readonly refusals: readonly RecordedRefusal[];
  /** Refusals (from index `since` of `refusals` on) counted by reason. */
  refusalsByReason(since?: number): Partial<Record<RefusalReason, number>>;
  /** The next `operation` (with this ref_id, when given) is forwarded and its answer lost: dropped or held. */
  loseAnswer(operation: LostCreate, how: "drop" | "hold", refId?: string): void;
  /** Every token issued so far stops working, as a revocation at the service does. */
  revokeTokens(): void;
  /** Resolves once no caller is locked out (at once when none is). */
  unlocked(): Promise<void>;
  /** Resolves once `n` calls (from index `since` of `calls` on) match `match`. */
  waitFor(
    match: (call: SeenCall) => boolean,
    n?: number,
    options?: { since?: number; timeoutMs?: number },
  ): Promise<void>;
}

/** The double on a loopback port, in front of a running app. */
export interface StrictDouble extends StrictDoubleState {
  port: number;
  url: string;
  /** The dashboard's environment for "the real service" (this double, the sandbox behind it). */
  env(clientSecret?: string): Record<string, string>;
  /** Where what passes is forwarded: the app's port (known once it runs). */
  setTarget(port: number): void;
  close(): Promise<void>;
}

/** The double as a fetch, in this process. */
export interface InProcessStrictDouble extends StrictDoubleState {
  /** The origin a test addresses it at (`${url}${DOUBLE_API}`, `${url}${DOUBLE_TOKEN}`); nothing listens on it. */
  url: string;
  /** fetch's contract, served by the double (below `prefix`, when it was given one). */
  fetch: typeof fetch;
  /**
   * Where what passes is forwarded: a fetch that serves the sandbox's paths (`/sandbox/v2/...`),
   * at `origin` (by default the origin each request was addressed to).
   */
  setTarget(target: typeof fetch, origin?: string): void;
}

export const DOUBLE_API = "/v2";
export const DOUBLE_TOKEN = "/oauth2/token";
/** Where the embedded sandbox serves the same paths. */
const SANDBOX_PREFIX = "/sandbox";

interface Upstream {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** The sandbox's answer to `path` (below /sandbox), for a request with these headers and body. */
type Forward = (request: Request, path: string, body: Buffer) => Promise<Upstream>;

/** What the double makes of a request: its answer, or the answer lost after the service acted. */
type Outcome = Response | { lost: "drop" | "hold" };

interface Token {
  scopes: Set<string>;
  expiresAt: number;
  /** How many tokens had been issued when revokeTokens() revoked it. */
  revokedAt?: number;
}

/** A token bucket per caller and class, one second deep: stricter than "averaged over a few minutes". */
function rateLimits(rates: Record<RateClass, number>, penaltyMs: number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const lockedUntil = new Map<string, number>();
  const take = (caller: string, cls: RateClass): Refusal | undefined => {
    const now = Date.now();
    if (now < (lockedUntil.get(caller) ?? 0))
      return { status: 429, reason: "locked out", detail: `the caller is locked out after a 429 (${cls})` };
    const rate = rates[cls];
    const key = `${caller} ${cls}`;
    const b = buckets.get(key) ?? { tokens: rate, at: now };
    b.tokens = Math.min(rate, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    buckets.set(key, b);
    if (b.tokens < 1) {
      lockedUntil.set(caller, now + penaltyMs);
      return { status: 429, reason: "rate limit", detail: `more than ${rate}/s in the ${cls} class` };
    }
    b.tokens -= 1;
    return undefined;
  };
  /** When the last lockout in force ends (ms since the epoch; 0 for none). */
  const lockoutEnd = () => Math.max(0, ...lockedUntil.values());
  return { take, lockoutEnd };
}

const problemBody = (status: number, detail: string) =>
  Buffer.from(JSON.stringify({ type: "about:blank", title: TITLES[status] ?? "Error", status, detail }), "utf8");
const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
};

const queryOf = (url: URL): Query => {
  const query: Query = new Map();
  for (const [name, value] of url.searchParams) query.set(name, [...(query.get(name) ?? []), value]);
  return query;
};

/** List Orders' unused amounts as the published example writes them. */
const ORDER_AMOUNTS = ["price", "base_amount", "quote_amount"];

/** A list answer as the reference shapes it: "0" amounts in orders, no cursor key on the last page. */
function shapeList(op: Operation, query: Query, json: Record<string, unknown>): Record<string, unknown> {
  const items = Array.isArray(json.items) ? (json.items as Record<string, unknown>[]) : undefined;
  if (!items) return json;
  const shaped = op.list?.orders
    ? items.map((o) => ({ ...o, ...Object.fromEntries(ORDER_AMOUNTS.filter((f) => o[f] === "").map((f) => [f, "0"])) }))
    : items;
  // "A page shorter than the limit is the last": the limit asked, or the documented default.
  const asked = Number(query.get("limit")?.[0] ?? op.list?.defaultLimit ?? Number.NaN);
  const cursor = json.next_page_cursor;
  const last = typeof cursor !== "string" || cursor === "" || shaped.length === 0 || shaped.length < asked;
  const { next_page_cursor: _dropped, ...rest } = json;
  return { ...rest, items: shaped, ...(last ? {} : { next_page_cursor: cursor }) };
}

/** The double itself: `handle` judges a request and answers it, forwarding what passes through `forward`. */
function createStrictDouble(options: StrictDoubleOptions) {
  const rates = { ...PUBLISHED_RATES, ...options.rates };
  const { take, lockoutEnd } = rateLimits(rates, options.penaltyMs ?? 300_000);
  const listed = options.markets ?? MARKET_DATA_MARKETS;
  const tokens = new Map<string, Token>();
  const calls: SeenCall[] = [];
  const refusals: RecordedRefusal[] = [];
  const losses: { operation: LostCreate; how: "drop" | "hold"; refId?: string }[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());

  const answer = (call: SeenCall, status: number, headers: Headers, body: Buffer): Response => {
    const h = new Headers(headers);
    for (const hop of ["transfer-encoding", "connection", "keep-alive", "content-encoding", "content-length"])
      h.delete(hop);
    // The reference names neither: a client must not get to depend on them.
    h.delete("www-authenticate");
    h.delete("retry-after");
    call.status = status;
    notify();
    // A Response may not carry a body with these statuses.
    const empty = status === 204 || status === 304;
    return new Response(empty ? null : new Uint8Array(body), { status, headers: h });
  };

  const refuse = (call: SeenCall, refusal: Refusal, { record = true } = {}): Response => {
    call.refusal = refusal.reason;
    if (record)
      refusals.push({
        ...refusal,
        operation: call.operation,
        method: call.method,
        path: call.path,
        search: call.search,
        at: call.at,
      });
    return answer(
      call,
      refusal.status,
      new Headers({ "content-type": "application/problem+json" }),
      problemBody(refusal.status, refusal.detail),
    );
  };

  /** A token request refused as OAuth words it (RFC 6749 5.2): `{error, error_description}`. */
  const refuseToken = (call: SeenCall, reason: RefusalReason, error: string, detail: string): Response => {
    call.refusal = reason;
    refusals.push({
      status: 400,
      reason,
      detail,
      operation: call.operation,
      method: call.method,
      path: call.path,
      search: call.search,
      at: call.at,
    });
    return answer(
      call,
      400,
      new Headers({ "content-type": "application/json", "cache-control": "no-store" }),
      Buffer.from(JSON.stringify({ error, error_description: detail }), "utf8"),
    );
  };

  /** POST /oauth2/token: the client credentials grant, documented scopes only, 1/s. */
  async function token(
    request: Request,
    caller: string,
    call: SeenCall,
    body: Buffer,
    forward: Forward,
  ): Promise<Outcome> {
    const limited = take(caller, "token");
    if (limited) return refuse(call, limited);
    const bad = (error: string, detail: string) => refuseToken(call, "invalid token request", error, detail);
    if (request.method !== "POST") return bad("invalid_request", "the token endpoint takes POST");
    if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? ""))
      return bad("invalid_request", "the token request must be a form (application/x-www-form-urlencoded)");
    const form = new URLSearchParams(body.toString("utf8"));
    if (form.get("grant_type") !== "client_credentials")
      return bad("unsupported_grant_type", "grant_type must be client_credentials");
    const asked = (form.get("scope") ?? "").split(" ").filter(Boolean);
    const refused = asked.filter((s) => !DOCUMENTED_SCOPES.has(s) || (options.granted && !options.granted.includes(s)));
    if (refused.length)
      return refuseToken(call, "invalid scope", "invalid_scope", `scope ${refused.join(" ")} not granted`);
    const up = await forward(request, call.path, body);
    call.forwarded = true;
    if (up.status === 200) {
      const issued = JSON.parse(up.body.toString("utf8")) as {
        access_token?: string;
        expires_in?: number;
        scope?: string;
      };
      if (issued.access_token) {
        tokens.set(issued.access_token, {
          scopes: new Set((issued.scope ?? asked.join(" ")).split(" ").filter(Boolean)),
          expiresAt: Date.now() + (issued.expires_in ?? 3599) * 1000,
        });
      }
    }
    return answer(call, up.status, up.headers, up.body);
  }

  /** A newer token than `revokedAt`: the client was told (a 401) and got a fresh one. */
  const reissuedSince = (revokedAt: number) => tokens.size > revokedAt;

  /**
   * Who is calling, or why not: a token this double issued, alive, holding the operation's scope.
   * `record: false` for a revoked token's 401 before the client could know of the revocation.
   */
  function authorize(request: Request, op: Operation): (Refusal & { record?: boolean }) | undefined {
    if (!op.scope) return undefined; // public market data
    const header = request.headers.get("authorization") ?? "";
    const found = /^bearer\s+(.+)$/i.exec(header) ? tokens.get(header.slice(7).trim()) : undefined;
    if (!found) return { status: 401, reason: "bad token", detail: "a valid Bearer access token is required" };
    if (found.revokedAt !== undefined)
      return {
        status: 401,
        reason: "bad token",
        detail: "the access token was revoked",
        record: reissuedSince(found.revokedAt),
      };
    if (Date.now() >= found.expiresAt) return { status: 401, reason: "bad token", detail: "the access token expired" };
    if (!found.scopes.has(op.scope))
      return { status: 403, reason: "missing scope", detail: `${op.name} needs the scope ${op.scope}` };
    return undefined;
  }

  async function api(
    request: Request,
    caller: string,
    call: SeenCall,
    url: URL,
    body: Buffer,
    forward: Forward,
  ): Promise<Outcome> {
    const below = url.pathname.slice(DOUBLE_API.length);
    const op = operationAt(call.method, below);
    const limited = take(caller, op?.rate ?? "api");
    if (limited) return refuse(call, limited);
    if (!op)
      return refuse(call, {
        status: 404,
        reason: "undocumented endpoint",
        detail: `the reference documents no ${call.method} ${below}`,
      });
    call.operation = op.name;
    const query = queryOf(url);
    const refused =
      authorize(request, op) ??
      checkQuery(op, query) ??
      checkPathMarket(op, below, listed) ??
      checkBody(op, request.headers.get("content-type") ?? undefined, body.toString("utf8"));
    if (refused) return refuse(call, refused, { record: !("record" in refused) || refused.record !== false });
    if (op.body) call.refId = (JSON.parse(body.toString("utf8")) as { ref_id?: string }).ref_id;

    const lossAt = losses.findIndex(
      (l) => l.operation === op.name && (l.refId === undefined || l.refId === call.refId),
    );
    const loss = lossAt >= 0 ? losses.splice(lossAt, 1)[0] : undefined;
    const up = await forward(request, url.pathname + url.search, body);
    call.forwarded = true;
    if (loss) {
      // The service acted; its answer never arrives.
      call.lost = loss.how;
      notify();
      return { lost: loss.how };
    }
    return answer(call, up.status, up.headers, reshape(op, query, up));
  }

  /** The sandbox's answer in the reference's shapes. */
  function reshape(op: Operation, query: Query, up: Upstream): Buffer {
    if (!/json/i.test(up.headers.get("content-type") ?? "") || up.body.length === 0) return up.body;
    let json = JSON.parse(up.body.toString("utf8")) as Record<string, unknown>;
    if (up.status === 200 && op.list) json = shapeList(op, query, json);
    if (up.status === 200 && op.name === "List Markets" && Array.isArray(json.markets))
      json = {
        ...json,
        markets: (json.markets as { market?: string }[]).filter((m) => listed.includes(m.market ?? "")),
      };
    return Buffer.from(JSON.stringify(json), "utf8");
  }

  /** One request from `caller` (its address), its path below the double's root. */
  async function handle(request: Request, body: Buffer, caller: string, forward: Forward): Promise<Outcome> {
    const url = new URL(request.url);
    const call: SeenCall = {
      operation: "?",
      method: request.method,
      path: url.pathname,
      search: url.search,
      at: Date.now(),
      forwarded: false,
    };
    calls.push(call);
    notify();
    try {
      if (url.pathname === DOUBLE_TOKEN) {
        call.operation = "token";
        return await token(request, caller, call, body, forward);
      }
      if (url.pathname.startsWith(`${DOUBLE_API}/`)) return await api(request, caller, call, url, body, forward);
      const limited = take(caller, "api");
      if (limited) return refuse(call, limited);
      return refuse(call, {
        status: 404,
        reason: "undocumented endpoint",
        detail: `no such endpoint: ${url.pathname}`,
      });
    } catch (error) {
      // The sandbox behind is down: not the dashboard's doing, and not a refusal.
      return answer(call, 502, new Headers({ "content-type": "text/plain" }), Buffer.from(String(error)));
    }
  }

  const state: StrictDoubleState = {
    calls,
    refusals,
    refusalsByReason: (since = 0) => {
      const counts: Partial<Record<RefusalReason, number>> = {};
      for (const r of refusals.slice(since)) counts[r.reason] = (counts[r.reason] ?? 0) + 1;
      return counts;
    },
    loseAnswer: (operation, how, refId) => {
      losses.push({ operation, how, refId });
    },
    revokeTokens: () => {
      for (const t of tokens.values()) t.revokedAt ??= tokens.size;
    },
    unlocked: () =>
      new Promise<void>((resolve) => {
        const wait = () => {
          const left = lockoutEnd() - Date.now();
          if (left <= 0) resolve();
          else setTimeout(wait, left);
        };
        wait();
      }),
    waitFor: (match, n = 1, { since = 0, timeoutMs = 10_000 } = {}) =>
      new Promise<void>((resolve, reject) => {
        const done = () => calls.slice(since).filter(match).length >= n;
        if (done()) return resolve();
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the strict double saw fewer than ${n} matching calls`));
        }, timeoutMs);
        waiters.add(check);
      }),
  };
  return { state, handle };
}

/** The dashboard's environment for "the real service" at `url` (the double, the sandbox behind it). */
const serviceEnv = (url: string, clientSecret = "sandbox-secret") => ({
  SERVICE_BASE_URL: `${url}${DOUBLE_API}`,
  SERVICE_AUTH_URL: `${url}${DOUBLE_TOKEN}`,
  SERVICE_CLIENT_ID: "dashboard",
  SERVICE_CLIENT_SECRET: clientSecret,
  // The embedded sandbox stays on behind the double; the demo users sign in with a strong password.
  SANDBOX: "on",
  DEMO_USERS: "on",
  AUDIT_SECRET: "an-audit-key-for-the-tests-of-32-chars",
});

/** The double on a loopback port; what passes goes on to the app's embedded sandbox (setTarget). */
export async function startStrictDouble(options: StrictDoubleOptions = {}): Promise<StrictDouble> {
  const { state, handle } = createStrictDouble(options);
  let target: number | undefined;

  const forward =
    (req: IncomingMessage): Forward =>
    (_request, path, body) =>
      new Promise((resolve, reject) => {
        if (target === undefined) return reject(new Error("the strict double has no target yet"));
        const headers = { ...req.headers, host: `127.0.0.1:${target}` };
        delete headers.connection;
        // Answers are read (and reshaped) here: plain bytes.
        headers["accept-encoding"] = "identity";
        const out = httpRequest(
          { host: "127.0.0.1", port: target, method: req.method, path: SANDBOX_PREFIX + path, headers, agent: false },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              const h = new Headers();
              for (const [k, v] of Object.entries(res.headers))
                for (const one of v === undefined ? [] : Array.isArray(v) ? v : [v]) h.append(k, one);
              resolve({ status: res.statusCode ?? 502, headers: h, body: Buffer.concat(chunks) });
            });
            res.on("error", reject);
          },
        );
        out.on("error", reject);
        out.end(body);
      });

  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const request = new Request(new URL(req.url ?? "/", "http://double"), {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) =>
          v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((one) => [k, one] as [string, string]),
        ),
      });
      const outcome = await handle(request, Buffer.concat(chunks), req.socket.remoteAddress ?? "unknown", forward(req));
      if (!(outcome instanceof Response)) {
        // Forwarded, the answer lost: the connection dropped, or left hanging.
        if (outcome.lost === "drop") req.socket.destroy();
        return;
      }
      if (res.destroyed || res.writableEnded) return;
      const out = Buffer.from(await outcome.arrayBuffer());
      const headers = Object.fromEntries(outcome.headers);
      headers["content-length"] = String(out.length);
      res.writeHead(outcome.status, headers);
      res.end(out);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return Object.assign(state, {
    port,
    url,
    env: (clientSecret?: string) => serviceEnv(url, clientSecret),
    setTarget: (p: number) => {
      target = p;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/**
 * The double as a fetch in this process, addressed at `url` (or, with `prefix`, at the paths
 * below it: "/sandbox" stands in front of the in-process runtime's sandbox where the dashboard
 * already addresses it). What passes goes on through setTarget's fetch; a lost answer is a
 * dropped connection (fetch's own network failure) or a request that hangs until its caller
 * gives up. Every caller is the one loopback address.
 */
export function inProcessStrictDouble(options: StrictDoubleOptions & { prefix?: string } = {}): InProcessStrictDouble {
  const { state, handle } = createStrictDouble(options);
  const prefix = options.prefix ?? "";
  const url = "http://strict-double.test";
  let target: { fetch: typeof fetch; origin?: string } | undefined;

  const forward =
    (origin: string): Forward =>
    async (request, path, body) => {
      if (!target) throw new Error("the strict double has no target yet");
      const headers = new Headers(request.headers);
      headers.set("accept-encoding", "identity");
      const res = await target.fetch(`${target.origin ?? origin}${SANDBOX_PREFIX}${path}`, {
        method: request.method,
        headers,
        body: request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(body),
      });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    };

  const served: typeof fetch = async (input, init) => {
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const incoming = new Request(input, { ...init, signal: undefined });
    const at = new URL(incoming.url);
    if (!at.pathname.startsWith(prefix)) throw new TypeError(`the strict double serves only ${prefix}/...`);
    const body = Buffer.from(await incoming.arrayBuffer());
    const request = new Request(new URL(at.pathname.slice(prefix.length) + at.search, url), {
      method: incoming.method,
      headers: incoming.headers,
    });
    const outcome = handle(request, body, "127.0.0.1", forward(at.origin));
    // The caller giving up ends its own wait, as over HTTP; what was sent goes on.
    const gaveUp = new Promise<never>((_, reject) =>
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true }),
    );
    const answer = outcome.then((o) => {
      if (o instanceof Response) return o;
      if (o.lost === "drop")
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
        });
      return gaveUp;
    });
    return signal ? Promise.race([answer, gaveUp]) : answer;
  };

  return Object.assign(state, {
    url,
    fetch: served,
    setTarget: (service: typeof fetch, origin?: string) => {
      target = { fetch: service, origin };
    },
  });
}
