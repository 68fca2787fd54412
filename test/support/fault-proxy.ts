import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { createFaults, Dropped, TOKEN_PATH, type Faults } from "./faults";

export { TOKEN_PATH, matches, type Fault, type IssuedToken, type Match, type SeenRequest } from "./faults";

/**
 * An HTTP proxy on a loopback port between a running dashboard and its own embedded sandbox,
 * that meets the faults of test/support/faults.ts on request, and logs every request and every
 * access token issued, so tests can count what reached "the service".
 *
 * Start it first, reset or start the app with `proxy.env()`, then `proxy.setTarget(app.port)`:
 * the app's port is known only once it runs, and a restarted app gets a new one.
 */

export interface FaultProxy extends Faults {
  port: number;
  url: string;
  /** The app's environment for talking to the sandbox through this proxy. */
  env(clientSecret?: string): Record<string, string>;
  /** Where requests go: the app's port. */
  setTarget(port: number): void;
  close(): Promise<void>;
}

export async function startFaultProxy(): Promise<FaultProxy> {
  let target: number | undefined;
  const { faults, handle } = createFaults();

  /** The request on to the app, its answer as a Response with the body as sent (before Next's compression). */
  const forward = (req: IncomingMessage, body: Buffer): Promise<Response> =>
    new Promise((resolve, reject) => {
      if (target === undefined) return reject(new Error("the proxy has no target yet"));
      const headers = { ...req.headers, host: `127.0.0.1:${target}` };
      delete headers.connection;
      const out = httpRequest(
        { host: "127.0.0.1", port: target, method: req.method, path: req.url, headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(responseOf(res, Buffer.concat(chunks))));
          res.on("error", reject);
        },
      );
      out.on("error", reject);
      out.end(body);
    });

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const request = new Request(new URL(req.url ?? "/", "http://proxy"), {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((one) => [k, one] as [string, string]),
      ),
    });
    // The client going away is the only end of a held request.
    const gone = new AbortController();
    res.once("close", () => gone.abort(new Error("the client went away")));
    let answer: Response;
    try {
      answer = await handle(
        request,
        body.toString("utf8"),
        () =>
          forward(req, body).catch(() =>
            Response.json(
              {
                type: "about:blank",
                title: "Proxy Target Down",
                status: 503,
                detail: "the app behind the proxy is not up",
              },
              { status: 503, headers: { "content-type": "application/problem+json" } },
            ),
          ),
        gone.signal,
      );
    } catch (error) {
      if (error instanceof Dropped || gone.signal.aborted) return void req.socket.destroy();
      throw error;
    }
    if (res.destroyed || res.writableEnded) return;
    const out = Buffer.from(await answer.arrayBuffer());
    const headers = Object.fromEntries(answer.headers);
    delete headers["transfer-encoding"];
    delete headers.connection;
    delete headers["keep-alive"];
    headers["content-length"] = String(out.length);
    res.writeHead(answer.status, headers);
    res.end(out);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return Object.assign(faults, {
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

/** The app's answer as a Response, its body decoded from Next's compression. */
function responseOf(res: IncomingMessage, raw: Buffer): Response {
  const encoding = res.headers["content-encoding"];
  const body =
    encoding === "gzip"
      ? gunzipSync(raw)
      : encoding === "br"
        ? brotliDecompressSync(raw)
        : encoding === "deflate"
          ? inflateSync(raw)
          : raw;
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined || k === "content-encoding" || k === "content-length" || k === "transfer-encoding") continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const status = res.statusCode ?? 502;
  // A Response may not carry a body with these statuses.
  const empty = status === 204 || status === 304 || status === 101;
  return new Response(empty ? null : new Uint8Array(body), { status, headers });
}
