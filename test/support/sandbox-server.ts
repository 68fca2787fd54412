import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxConfig } from "@/lib/sandbox/config";
import { serveSandbox } from "@/lib/sandbox/http/serve";
import { SandboxRuntime } from "@/lib/sandbox/runtime";

export const CLIENT = { id: "dashboard", secret: "sandbox-secret" };

export const testConfig = (overrides: Partial<SandboxConfig> = {}): SandboxConfig => ({
  dataDir: mkdtempSync(join(tmpdir(), "sandbox-test-")),
  clientId: CLIENT.id,
  clientSecret: CLIENT.secret,
  tokenTtlSeconds: 3600,
  tokenRatePerSecond: 1000,
  apiRatePerSecond: 100_000,
  transferRatePerSecond: 100_000,
  orderBookRatePerSecond: 100_000,
  ratePenaltySeconds: 300,
  marketMaker: false,
  seed: "test",
  transferSettleMillis: 200,
  cancelSettleMillis: 200,
  // A failure the sandbox survives shows in the test's output.
  onError: (what, error) => process.stderr.write(`${what}: ${error instanceof Error ? error.stack : error}\n`),
  ...overrides,
});

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const body = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  return new Request(origin + req.url, { method: req.method, headers, body });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export interface SandboxServer {
  url: string;
  runtime: SandboxRuntime;
  /** Stops serving; `keepData` leaves the store for a restart test. */
  close(keepData?: boolean): Promise<void>;
}

/** The sandbox over real HTTP on a loopback port, as the Next route serves it. */
export async function startSandboxServer(config: SandboxConfig = testConfig()): Promise<SandboxServer> {
  const runtime = new SandboxRuntime(config).start();
  let origin = "";
  const server: Server = createServer((req, res) => {
    toRequest(req, origin)
      // The test client may name its address (X-Forwarded-For) to stand for several callers.
      .then((request) =>
        serveSandbox(request, runtime, String(req.headers["x-forwarded-for"] ?? req.socket.remoteAddress)),
      )
      .then((response) => send(res, response))
      .catch((error) => {
        res.writeHead(500);
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    runtime,
    close: async (keepData = false) => {
      await new Promise((resolve) => server.close(resolve));
      runtime.stop();
      if (!keepData) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A small client for tests: tokens, JSON calls, problems. Its calls share one token, fetched
 * once however many calls start together: 75 parallel calls must not ask for 75 tokens, which
 * overruns the client's token budget (SANDBOX_TOKEN_RATE_PER_SECOND), earns its penalty and
 * turns into 401s ("Bearer undefined").
 */
export function sandboxClient(base: string, doFetch: typeof fetch = fetch, clientSecret = CLIENT.secret) {
  let token: Promise<string> | undefined;
  async function getToken(scope?: string): Promise<string> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: CLIENT.id,
      client_secret: clientSecret,
    });
    if (scope) form.set("scope", scope);
    const res = await doFetch(`${base}/sandbox/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
    });
    const body = (await res.json()) as { access_token?: string };
    if (!res.ok || !body.access_token)
      throw new Error(`the sandbox refused a token: ${res.status} ${JSON.stringify(body)}`);
    return body.access_token;
  }
  function sharedToken(): Promise<string> {
    // A refused token is not kept: the next call asks again.
    token ??= getToken().catch((error: unknown) => {
      token = undefined;
      throw error;
    });
    return token;
  }
  async function call(method: string, path: string, body?: unknown, bearer?: string) {
    const res = await doFetch(`${base}/sandbox/v2${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${bearer ?? (await sharedToken())}`,
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as any) : undefined };
  }
  return { getToken, call };
}
