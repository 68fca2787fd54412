import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { handleSandboxRequest, HANDLERS } from "@/lib/sandbox/http";
import { SandboxRuntime } from "@/lib/sandbox/runtime";
import { profileId } from "@/lib/sandbox/seed";
import { OPERATIONS, SCOPES, type Operation, type Scope } from "@/lib/spec";
import { CLIENT, testConfig } from "../../support/sandbox-server";

/**
 * The sandbox serves the operations of lib/spec/operations.ts, each at its method and path and
 * behind its scope: the dashboard's scope checks and the service's refusals cannot drift apart.
 */

const config = testConfig();
const runtime = new SandboxRuntime(config, () => 1_900_000_000_000);
afterAll(() => {
  runtime.stop();
  rmSync(config.dataDir, { recursive: true, force: true });
});

const ARGUMENTS: Record<string, string> = { profile_id: profileId("trading"), id: "no-such-id", market: "BTCUSD" };
const pathOf = (operation: Operation) =>
  `/v2${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => ARGUMENTS[name]!)}`;

/** One call to the sandbox's handler, with a token of `scopes` (none: no token). */
function call(operation: Operation, scopes?: Scope[]) {
  const client = runtime.clients.get(CLIENT.id)!;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (scopes) headers.authorization = `Bearer ${runtime.tokens.issue(client, scopes).access_token}`;
  const path = pathOf(operation);
  const body = operation.method === "POST" ? "{}" : undefined;
  const request = new Request(`http://sandbox.test/sandbox${path}`, { method: operation.method, headers, body });
  return handleSandboxRequest(request, path, runtime, "198.51.100.7");
}

/** Whether the answer came from the operation's handler, not from routing (no such endpoint, wrong method). */
async function served(response: Response) {
  if (response.status === 405) return false;
  const body = (await response.json().catch(() => null)) as { detail?: string } | null;
  return !(response.status === 404 && body?.detail?.startsWith("no such endpoint"));
}

const operations = Object.entries(OPERATIONS) as [string, Operation][];

describe("the sandbox and the service's operations", () => {
  it("has a handler for every operation, and none for anything else", () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(OPERATIONS).sort());
  });

  it.each(operations.filter(([, o]) => o.scope))("refuses %s without its scope, naming it", async (_, operation) => {
    const others = SCOPES.filter((s) => s !== operation.scope);
    const refused = await call(operation, others);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ meta: { required_scope: operation.scope } });
    expect(await served(await call(operation, [operation.scope!]))).toBe(true);
  });

  it.each(operations.filter(([, o]) => !o.scope))("serves %s without a token", async (_, operation) => {
    const answer = await call(operation);
    expect(answer.status).toBe(200);
    expect(await served(answer)).toBe(true);
  });
});
