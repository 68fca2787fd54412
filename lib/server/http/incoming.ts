import "server-only";
import { randomUUID } from "node:crypto";
import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { problem } from "@/lib/spec";
import { appRouteOf } from "../ops/app-routes";
import type { Lifecycle } from "../ops/lifecycle";
import { log } from "../ops/log";
import { normal, PEER_HEADER } from "./peer-address";
import { inRequest, newRequestContext, type RequestContext } from "./request-context";

/**
 * Every HTTP request the server receives, pages, API and sandbox alike, as it arrives and
 * before Next sees it: stamped with its connection's address (lib/server/http/peer-address.ts),
 * given its request id (echoed as X-Request-Id), counted in flight, refused while the instance
 * stops, and logged as one line when its response is done.
 */

export const REQUEST_ID_HEADER = "x-request-id";

/** A request id taken from a trusted proxy: a token of printable characters, not a story. */
const REQUEST_ID = /^[\w.:/+=@-]{1,128}$/;

/**
 * What a stopping instance still answers: its probes (liveness stays 200; readiness says 503
 * itself) and the embedded sandbox, which stands in for the service and so keeps answering the
 * creates this instance is finishing.
 */
const ANSWERED_WHILE_STOPPING = /^\/(api\/health|api\/ready|sandbox)(\/|\?|$)/;

/** Readiness, whose 503 while the instance stops is the answer it means to give. */
const READINESS_PATH = "/api/ready";

/** Answers a request on the node server's own terms, before Next sees it. */
export type OwnHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface RequestWatch {
  /** From now on requests are counted in `lifecycle`, and refused once it stops. */
  attach(lifecycle: Lifecycle): void;
  /**
   * Requests for exactly `path` are answered by `handle`, never by Next: a surface that exists
   * only where it was installed (the test harness's control, lib/server/ops/test-control.ts).
   */
  serve(path: string, handle: OwnHandler): void;
  /** The servers requests came in on, to close at shutdown. */
  readonly servers: ReadonlySet<Server>;
}

let installed: RequestWatch | undefined;

/**
 * Hooks every node http server of the process (Next creates its own; there is no other way in
 * before it reads the request). Called once at start, first thing (instrumentation.ts).
 * `trusted`: TRUSTED_PROXY_IPS, whose X-Request-Id is kept.
 */
export function watchRequests(trusted: ReadonlySet<string>): RequestWatch {
  if (installed) return installed;
  const servers = new Set<Server>();
  const own = new Map<string, OwnHandler>();
  let lifecycle: Lifecycle | undefined;
  const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event !== "request") return emit.call(this, event, ...args);
    servers.add(this);
    const [request, response] = args as [IncomingMessage, ServerResponse];
    const arrival = arrive(request, response, trusted);
    const handle = own.get(arrival.path);
    if (handle) {
      response.once("close", () => logRequest(arrival, response));
      handle(request, response);
      return true;
    }
    if (lifecycle?.stopping && !ANSWERED_WHILE_STOPPING.test(request.url ?? "")) {
      response.once("close", () => logRequest(arrival, response, true));
      refuseWhileStopping(response);
      return true;
    }
    const leave = lifecycle?.enter();
    response.once("close", () => {
      leave?.();
      logRequest(arrival, response, lifecycle?.stopping === true && arrival.path === READINESS_PATH);
    });
    return inRequest(arrival.context, () => emit.call(this, event, ...args));
  } as Server["emit"];
  installed = {
    attach: (l) => void (lifecycle = l),
    serve: (path, handle) => void own.set(path, handle),
    servers,
  };
  return installed;
}

interface Arrival {
  context: RequestContext;
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  started: number;
}

/** Stamps the request's peer address and id (overwriting whatever the caller sent) and echoes the id. */
function arrive(request: IncomingMessage, response: ServerResponse, trusted: ReadonlySet<string>): Arrival {
  const peer = request.socket?.remoteAddress ?? "";
  request.headers[PEER_HEADER] = peer;
  const id = requestId(request.headers[REQUEST_ID_HEADER], trusted.has(normal(peer)));
  request.headers[REQUEST_ID_HEADER] = id;
  response.setHeader("X-Request-Id", id);
  return {
    context: newRequestContext(id),
    method: request.method ?? "",
    path: (request.url ?? "").split("?")[0]!.slice(0, 300),
    headers: request.headers,
    started: performance.now(),
  };
}

/** The trusted proxy's id when it sent a sound one; otherwise a new one. */
export function requestId(given: string | string[] | undefined, fromTrustedProxy: boolean): string {
  return fromTrustedProxy && typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The request's one line: what, who, how it ended, how long, and what it cost at the service.
 * `drain`: the response is a stopping instance's own answer (see requestLogLevel).
 */
function logRequest(
  { context, method, path, headers, started }: Arrival,
  response: ServerResponse,
  drain = false,
): void {
  const status = response.statusCode;
  const aborted = !response.writableFinished;
  const line = {
    request_id: context.id,
    method,
    route: appRouteOf(path),
    path,
    status,
    latency_ms: Math.round((performance.now() - started) * 10) / 10,
    user_email: context.user?.email ?? null,
    user_role: context.user?.role ?? null,
    upstream_calls: context.upstream.calls,
    upstream_ms: Math.round(context.upstream.ms * 10) / 10,
    ...(aborted ? { aborted: true } : {}),
    // For debugging a proxy's headers: cookies and Authorization are redacted (lib/server/ops/log.ts).
    ...(log.isLevelEnabled("debug") ? { headers } : {}),
  };
  const message = `${method} ${path} ${status}${aborted ? " (closed early)" : ""}`;
  log[requestLogLevel({ status, aborted, drain })](line, message);
}

/**
 * A request line's level: a 5xx is an error, a response closed early a warning. But the 503 a
 * stopping instance means to give (its refusal of a request that came after the signal, readiness
 * saying it is going: `drain`) is a warning: a planned drain, at every rolling deploy, is no outage.
 */
export function requestLogLevel({
  status,
  aborted,
  drain,
}: {
  status: number;
  aborted: boolean;
  drain: boolean;
}): "error" | "warn" | "info" {
  if (status >= 500 && !(drain && status === 503)) return "error";
  return status >= 500 || aborted ? "warn" : "info";
}

const STOPPING = JSON.stringify(
  problem(
    503,
    "Service Unavailable",
    "This instance of the dashboard is shutting down: send the request again and another instance will take it.",
    { reason: "shutting_down" },
  ),
);

function refuseWhileStopping(response: ServerResponse): void {
  response.writeHead(503, {
    "Content-Type": "application/problem+json",
    "Content-Length": Buffer.byteLength(STOPPING),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Retry-After": "1",
    Connection: "close",
  });
  response.end(STOPPING);
}
