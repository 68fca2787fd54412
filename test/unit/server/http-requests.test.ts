import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { requestId, watchRequests } from "@/lib/server/http/incoming";
import { createLifecycle } from "@/lib/server/ops/lifecycle";
import { log } from "@/lib/server/ops/log";
import { PEER_HEADER } from "@/lib/server/http/peer-address";
import { currentRequest, noteUpstreamCall, noteUser } from "@/lib/server/http/request-context";

/**
 * The hook on every node http server, on a plain server of this process: what Next's server
 * gets from it under `next start` (test/integration/app/production.test.ts checks that too).
 */

const lifecycle = createLifecycle();
const watch = watchRequests(new Set(["10.9.9.9"]));
watch.attach(lifecycle);

let server: Server;
let base: string;
let release: () => void = () => {};
const lines: Record<string, any>[] = [];

beforeAll(async () => {
  for (const level of ["info", "warn", "error"] as const) {
    vi.spyOn(log, level).mockImplementation(((fields: Record<string, any>) => void lines.push(fields)) as never);
  }
  server = createServer((req, res) => {
    const context = currentRequest();
    if (req.url === "/slow") {
      release = () => res.end("done");
      return;
    }
    if (req.url?.startsWith("/signed-in")) {
      noteUser({ email: "trader@example.com", role: "trader" });
      noteUpstreamCall(12.25);
      noteUpstreamCall(7.5);
    }
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ context, peer: req.headers[PEER_HEADER], id: req.headers["x-request-id"] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  vi.restoreAllMocks();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lineOf = (id: string) => lines.find((l) => l.request_id === id);

describe("every request the server receives", () => {
  it("gets a request id, echoed in the response and the same in the handler's context", async () => {
    const res = await fetch(`${base}/plain?x=1`);
    const body = await res.json();
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.context.id).toBe(id);
    expect(body.id).toBe(id);
    expect(body.peer).toBe("127.0.0.1");
  });

  it("keeps X-Request-Id only from a trusted proxy: a caller's own is replaced", async () => {
    const res = await fetch(`${base}/plain`, { headers: { "X-Request-Id": "caller-chosen" } });
    expect(res.headers.get("x-request-id")).not.toBe("caller-chosen");
    expect(requestId("from-the-proxy.1", true)).toBe("from-the-proxy.1");
    expect(requestId("from-the-proxy.1", false)).not.toBe("from-the-proxy.1");
    expect(requestId("has spaces and\nnewlines", true)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestId(["a", "b"], true)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is logged once its response is done: method, route, path, status, latency, user, upstream calls", async () => {
    const res = await fetch(`${base}/signed-in?secret=not-logged`);
    await res.text();
    const id = res.headers.get("x-request-id")!;
    await vi.waitFor(() => expect(lineOf(id)).toBeDefined());
    expect(lineOf(id)).toMatchObject({
      method: "GET",
      path: "/signed-in",
      status: 200,
      user_email: "trader@example.com",
      user_role: "trader",
      upstream_calls: 2,
      upstream_ms: 19.8,
    });
    expect(lineOf(id)!.latency_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(lineOf(id))).not.toContain("not-logged");
    expect(lines.filter((l) => l.request_id === id)).toHaveLength(1);
  });

  it("is counted in flight until its response is done", async () => {
    const pending = fetch(`${base}/slow`);
    await vi.waitFor(() => expect(lifecycle.inFlight).toBe(1));
    release();
    await (await pending).text();
    await vi.waitFor(() => expect(lifecycle.inFlight).toBe(0));
  });

  it("once the instance stops, is refused with a 503 problem, but for the probes and the sandbox", async () => {
    const slow = fetch(`${base}/slow`);
    await vi.waitFor(() => expect(lifecycle.inFlight).toBe(1));
    lifecycle.begin("SIGTERM");
    const refused = await fetch(`${base}/api/v2/profiles/x/orders`, { method: "POST", body: "{}" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(refused.headers.get("connection")).toBe("close");
    expect(refused.headers.get("x-request-id")).toBeTruthy();
    expect(await refused.json()).toMatchObject({
      status: 503,
      title: "Service Unavailable",
      meta: { reason: "shutting_down" },
    });
    for (const path of ["/api/health", "/api/ready", "/sandbox/v2/markets"]) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(200);
    }
    // What was admitted before goes on to its end.
    release();
    expect(await (await slow).text()).toBe("done");
    await vi.waitFor(() => expect(lifecycle.inFlight).toBe(0));
  });
});
