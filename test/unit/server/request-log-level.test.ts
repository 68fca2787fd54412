import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { requestLogLevel, watchRequests } from "@/lib/server/http/incoming";
import { createLifecycle } from "@/lib/server/ops/lifecycle";
import { log } from "@/lib/server/ops/log";

/**
 * The level of a request's log line: a real 5xx is an error, but what a stopping instance means
 * to answer during a planned drain (SIGTERM at every rolling deploy) is a warning.
 */

describe("requestLogLevel", () => {
  it.each([
    { status: 200, aborted: false, drain: false, level: "info" },
    { status: 404, aborted: false, drain: false, level: "info" },
    { status: 499, aborted: false, drain: false, level: "info" },
    { status: 200, aborted: true, drain: false, level: "warn" },
    { status: 500, aborted: false, drain: false, level: "error" },
    { status: 503, aborted: false, drain: false, level: "error" },
    { status: 503, aborted: true, drain: false, level: "error" },
    // The drain's own 503: its refusal at the door, readiness saying it is going.
    { status: 503, aborted: false, drain: true, level: "warn" },
    { status: 503, aborted: true, drain: true, level: "warn" },
    // Any other 5xx while draining is still a failure.
    { status: 500, aborted: false, drain: true, level: "error" },
    { status: 502, aborted: false, drain: true, level: "error" },
    { status: 200, aborted: false, drain: true, level: "info" },
  ])("$status (closed early: $aborted, the drain's answer: $drain) is $level", ({ level, ...response }) => {
    expect(requestLogLevel(response)).toBe(level);
  });
});

describe("the request lines of a stopping instance", () => {
  const lifecycle = createLifecycle();
  const watch = watchRequests(new Set());
  const lines: { level: string; path: string; status: number }[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    watch.attach(lifecycle);
    for (const level of ["info", "warn", "error"] as const) {
      vi.spyOn(log, level).mockImplementation(
        ((fields: { path: string; status: number }) =>
          void lines.push({ level, path: fields.path, status: fields.status })) as never,
      );
    }
    server = createServer((req, res) => {
      // Readiness says 503 once stopping; the sandbox (answered while stopping) fails for real.
      res.statusCode = req.url === "/api/ready" ? (lifecycle.stopping ? 503 : 200) : 500;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    // Leaves the process's watcher with a lifecycle that lets requests in, for the next file.
    watch.attach(createLifecycle());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const lineOf = async (path: string, status: number) => {
    await vi.waitFor(() => expect(lines.find((l) => l.path === path && l.status === status)).toBeDefined());
    return lines.find((l) => l.path === path && l.status === status)!;
  };

  it("logs a refusal and readiness's 503 at warn, and a real 5xx at error, while draining", async () => {
    expect((await fetch(`${base}/api/ready`)).status).toBe(200);
    expect((await lineOf("/api/ready", 200)).level).toBe("info");
    lifecycle.begin("SIGTERM");

    const refused = await fetch(`${base}/api/v2/profiles/x/orders`, { method: "POST", body: "{}" });
    expect(refused.status).toBe(503);
    expect((await lineOf("/api/v2/profiles/x/orders", 503)).level).toBe("warn");

    expect((await fetch(`${base}/api/ready`)).status).toBe(503);
    expect((await lineOf("/api/ready", 503)).level).toBe("warn");

    expect((await fetch(`${base}/sandbox/v2/markets`)).status).toBe(500);
    expect((await lineOf("/sandbox/v2/markets", 500)).level).toBe("error");
  });
});
