import { request as httpRequest } from "node:http";
import fc from "fast-check";
import type { Client } from "./dashboard";
import { smallOrder, smallTransfer, TRADING } from "./requests";

/**
 * Hostile bodies (wrong types, huge strings, deep nesting, prototype keys, broken JSON, wrong
 * content types) across every POST route of the back end and of the sandbox, and what each
 * answer was: a 5xx, or a 4xx that is not a problem (the token endpoint's are RFC 6749 errors,
 * as OAuth clients need), is a failure. Used by test/integration/app/fuzz.test.ts (the rule) and
 * test/bench/fuzz.ts (the server's memory after 10,000 of them).
 */

/** The app under fuzz: its URL, a signed-in client per role and sandbox tokens of each write scope. */
export interface FuzzedApp {
  url: string;
  as: Record<"trader" | "ops" | "admin" | "approver", Client>;
  tokens: { order: string; transfer: string; profile: string };
}

/** Sandbox tokens of the scopes the fuzzed sandbox routes need. */
export async function fuzzTokens(sandbox: { getToken(scope?: string): Promise<string> }): Promise<FuzzedApp["tokens"]> {
  return {
    order: await sandbox.getToken("exchange:write_order"),
    transfer: await sandbox.getToken("transfer:write_internal_transfer"),
    profile: await sandbox.getToken("funding:read_profile"),
  };
}

export interface Target {
  name: string;
  path: string;
  headers: () => Record<string, string>;
  /** A valid body for this route, for mutations of one field. */
  base: Record<string, unknown>;
  oauth?: true;
}

const UNKNOWN_APPROVAL = "00000000-0000-4000-8000-000000000000";

/** Every POST route of the back end and of the sandbox, with a valid body to mutate. */
function targetsOf(app: FuzzedApp): Target[] {
  const signedIn = (role: "trader" | "ops" | "admin" | "approver") => () => ({
    Cookie: app.as[role].cookie(),
    Origin: app.url,
  });
  const bearer = (scope: keyof FuzzedApp["tokens"]) => () => ({ Authorization: `Bearer ${app.tokens[scope]}` });
  return [
    {
      name: "back end: create order",
      path: `/api/v2/profiles/${TRADING}/orders`,
      headers: signedIn("trader"),
      base: smallOrder(),
    },
    {
      name: "back end: create transfer",
      path: "/api/v2/transfer/internal",
      headers: signedIn("ops"),
      base: smallTransfer(),
    },
    {
      name: "back end: approve",
      path: `/api/approvals/${UNKNOWN_APPROVAL}/approve`,
      headers: signedIn("approver"),
      base: {},
    },
    {
      name: "back end: reject",
      path: `/api/approvals/${UNKNOWN_APPROVAL}/reject`,
      headers: signedIn("approver"),
      base: { reason: "no" },
    },
    {
      name: "back end: withdraw",
      path: `/api/approvals/${UNKNOWN_APPROVAL}/withdraw`,
      headers: signedIn("ops"),
      base: {},
    },
    {
      name: "sandbox: create order",
      path: `/sandbox/v2/profiles/${TRADING}/orders`,
      headers: bearer("order"),
      base: smallOrder(),
    },
    {
      name: "sandbox: create transfer",
      path: "/sandbox/v2/transfer/internal",
      headers: bearer("transfer"),
      base: smallTransfer(),
    },
    {
      name: "sandbox: deposit",
      path: `/sandbox/v2/sandbox/profiles/${TRADING}/deposit`,
      headers: bearer("profile"),
      base: { asset: "USD", amount: "1" },
    },
    {
      name: "sandbox: token",
      path: "/sandbox/oauth2/token",
      headers: () => ({}),
      base: { grant_type: "client_credentials" },
      oauth: true,
    },
  ];
}

const PROTO = ["__proto__", "constructor", "prototype"];
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

/** One hostile request: a content type and a raw body (or none). */
const hostile = (base: Record<string, unknown>) =>
  fc.oneof(
    // Any JSON value at all, as the body.
    fc.jsonValue().map((v) => ({ type: "application/json", body: JSON.stringify(v) })),
    // The valid body with one field replaced by anything (wrong types, huge or odd strings).
    fc
      .tuple(
        fc.constantFrom(...Object.keys(base), "metadata", "extra"),
        fc.oneof(fc.anything(), fc.string({ unit: "binary" })),
      )
      .map(([k, v]) => ({ type: "application/json", body: JSON.stringify({ ...base, [k]: v }) ?? "null" })),
    // Prototype keys at the top and in metadata.
    fc.constantFrom(...PROTO).map((k) => ({
      type: "application/json",
      body: JSON.stringify(base).replace(
        /}$/,
        `${Object.keys(base).length ? "," : ""}"${k}":{"x":1},"metadata":{"${k}":"v","a":"b"}}`,
      ),
    })),
    // Huge strings: past the body cap, and just under it in one field.
    fc.constantFrom(70_000, 200_000, 60_000).map((n) => ({
      type: "application/json",
      body: JSON.stringify({ ...base, ref_id: "r".repeat(n) }),
    })),
    // Amounts padded with zeros, or numbers instead of strings.
    fc.nat({ max: 20_000 }).map((n) => ({
      type: "application/json",
      body: JSON.stringify({ ...base, amount: `${"0".repeat(n)}1`, price: 1e308 }),
    })),
    // Deep nesting.
    fc.tuple(fc.boolean(), fc.integer({ min: 100, max: 20_000 })).map(([array, n]) => ({
      type: "application/json",
      body: array ? deep(n) : deepObject(n),
    })),
    // Broken JSON and other text.
    fc.string({ unit: "grapheme", maxLength: 200 }).map((s) => ({ type: "application/json", body: `{${s}` })),
    // Wrong content types, or none.
    fc
      .tuple(
        fc.constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/xml",
          "",
        ),
        fc.string({ maxLength: 100 }),
      )
      .map(([type, body]) => ({ type, body })),
  );

/**
 * One request on a connection of its own: a refused body is answered before it is read, and
 * the server then closes that connection, which a pooled client could be reusing.
 */
function send(base: string, target: Target, req: { type: string; body: string }) {
  const headers: Record<string, string> = { ...target.headers() };
  if (req.type) {
    headers["Content-Type"] =
      target.oauth && req.type === "application/json" ? "application/x-www-form-urlencoded" : req.type;
  }
  const url = new URL(`${base}${target.path}`);
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    const r = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, type: String(res.headers["content-type"] ?? ""), text }),
        );
      },
    );
    // The server may stop reading a body past its cap and answer at once: the answer is what counts.
    r.on("error", (error) => reject(new Error(`${target.name}: ${error.message}`)));
    r.end(req.body);
  });
}

/**
 * Sends `total` hostile requests (`warmup` more first, answered but counted too), `concurrency`
 * at a time, interleaved so every route gets its share; answers the failures (at most 20) and
 * the count of each status.
 */
export async function fuzz(
  app: FuzzedApp,
  total: number,
  options: { warmup?: number; concurrency?: number; between?: () => Promise<void> } = {},
) {
  const { warmup = 0, concurrency = 8 } = options;
  const TARGETS = targetsOf(app);
  const perTarget = TARGETS.map((t) => fc.sample(hostile(t.base), Math.ceil((total + warmup) / TARGETS.length)));
  const plan = perTarget[0]!.flatMap((_, i) => TARGETS.map((t, k) => ({ t, r: perTarget[k]![i]! })));
  const failures: string[] = [];
  const byStatus = new Map<number, number>();
  let next = 0;
  async function worker(until: number) {
    while (next < until) {
      const { t, r } = plan[next++]!;
      const res = await send(app.url, t, r);
      byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
      const isProblem = /^application\/problem\+json/.test(res.type);
      const isOAuthError = t.oauth === true && /^application\/json/.test(res.type) && /"error"/.test(res.text);
      if (res.status >= 500 || (res.status >= 400 && !isProblem && !isOAuthError)) {
        if (failures.length < 20)
          failures.push(
            `${t.name}: ${res.status} ${res.type} ${res.text.slice(0, 200)} <- ${r.type} ${r.body.slice(0, 120)}`,
          );
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, () => worker(warmup)));
  await options.between?.();
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, () => worker(warmup + total)));
  return { failures, byStatus, seconds: (Date.now() - started) / 1000, routes: TARGETS.length };
}
