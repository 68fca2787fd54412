import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import { scopeNeeded } from "@/lib/shared/token-scopes";
import { TOKEN_SECRET_PREFIX } from "@/lib/shared/api-tokens";
import { components, type Named } from "./components";
import { OPERATIONS, type Operation } from "./paths";
import { problem } from "./schemas";

/**
 * The dashboard's API as an OpenAPI 3.1 document, made from the table of paths.ts and the zod
 * schemas the routes parse with (zod 4's own z.toJSONSchema, which reads zod/mini's schemas as
 * zod's): `GET /api/openapi.json` answers it.
 */

type Json = Record<string, unknown>;

const OPTIONS = {
  target: "draft-2020-12",
  // A refine or a transform has no JSON Schema: the shape around it still says what to send.
  unrepresentable: "any",
} as const;

/** A request's schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): what a caller may send. */
export function jsonSchemaOf(schema: $ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { ...OPTIONS, io: "input" }) as Json;
  return rest;
}

const PROBLEM_STATUSES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized: no live session or token (a revoked or expired one, a token outside Authorization).",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests: the token's own rate; wait Retry-After seconds.",
  500: "Internal Server Error",
  502: "Bad Gateway: the service failed.",
  503: "Service Unavailable",
};

const ref = (named: Named) => ({ $ref: `#/components/schemas/${named.name}` });

const problemRef = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ref(problem) } },
});

/** Who may call `op`: the cookie session always, a token when a scope opens its action. */
function securityOf(op: Operation): { security: Json[]; scope: string | null } {
  if (op.access === "public") return { security: [], scope: null };
  if (op.access === "metrics") return { security: [{ session: [] }, { metricsToken: [] }], scope: null };
  // The live stream ends with its session: the wrapper refuses it to a token (byToken: false).
  const scope = op.path === "/api/events" ? null : scopeNeeded(op.access, op.method);
  return {
    security: scope ? [{ session: [] }, { apiToken: [scope] }] : [{ session: [] }],
    scope,
  };
}

/** The problems every call through the route wrapper may answer, and the handler's own. */
function problemsOf(op: Operation, scope: string | null): Record<number, string> {
  const wrapper: Record<number, string> =
    op.access === "public"
      ? {}
      : {
          401: PROBLEM_STATUSES[401]!,
          403: "Forbidden: the role (or the token's scopes) may not; a change from another origin.",
          500: PROBLEM_STATUSES[500]!,
        };
  if (scope) {
    wrapper[400] = "Both a session cookie and a bearer token: one request has one caller.";
    wrapper[429] = PROBLEM_STATUSES[429]!;
  }
  const own = Object.fromEntries(Object.entries(op.problems).filter(([, d]) => d)) as Record<number, string>;
  const merged: Record<number, string> = { ...wrapper };
  for (const [status, description] of Object.entries(own)) {
    const s = Number(status);
    merged[s] = merged[s] ? `${description} ${merged[s]}` : description;
  }
  return merged;
}

function parametersOf(op: Operation): Json[] {
  const params: Json[] = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (op.query) {
    const query = jsonSchemaOf(op.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const repeated = schema.type === "array";
      params.push({
        name,
        in: "query",
        required: query.required?.includes(name) ?? false,
        schema,
        ...(repeated ? { style: "form", explode: true } : {}),
      });
    }
  }
  for (const header of op.headers ?? []) {
    params.push({
      name: header.name,
      in: "header",
      required: false,
      description: header.description,
      schema: { type: "string" },
    });
  }
  return params;
}

function answerOf(answer: Operation["ok"][number]["answer"]): Json | undefined {
  switch (answer) {
    case undefined:
      return undefined;
    case "csv":
      return { "text/csv": { schema: { type: "string" } } };
    case "event-stream":
      return { "text/event-stream": { schema: { type: "string" } } };
    case "text":
      return { "text/plain": { schema: { type: "string" } } };
    case "object":
      return { "application/json": { schema: { type: "object" } } };
    default:
      return { "application/json": { schema: ref(answer) } };
  }
}

function operationOf(op: Operation): Json {
  const { security, scope } = securityOf(op);
  const responses: Json = {};
  for (const [status, { description, answer }] of Object.entries(op.ok)) {
    const content = answerOf(answer);
    responses[status] = content ? { description, content } : { description };
  }
  for (const [status, description] of Object.entries(problemsOf(op, scope))) {
    responses[status] = problemRef(description);
  }
  const body = op.body && {
    required: true,
    content: {
      "application/json": { schema: ref(op.body) },
      ...(op.body.csv
        ? {
            "text/csv": { schema: { type: "string", description: "The batch as a CSV file; its ref_id as ?ref_id=." } },
          }
        : {}),
    },
  };
  const who =
    op.access === "public"
      ? "No caller needed."
      : op.access === "metrics"
        ? "An admin's session, or `Authorization: Bearer $METRICS_TOKEN`."
        : scope
          ? `A session whose role may \`${op.access}\`, or a personal API token with the \`${scope}\` scope (its owner's role now, narrowed by the scope).`
          : `A session whose role may \`${op.access}\`; never a personal API token.`;
  return {
    operationId: operationIdOf(op),
    summary: op.summary,
    description: who,
    tags: [op.tag],
    security,
    ...(parametersOf(op).length ? { parameters: parametersOf(op) } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** `post /api/v2/profiles/{profile_id}/orders` → `postApiV2ProfilesProfileIdOrders`. */
export function operationIdOf(op: Pick<Operation, "method" | "path">): string {
  const words = op.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return op.method + words.join("");
}

/**
 * Every named schema (components.ts), once, each nested one a $ref: a body as a caller may send
 * it (zod's input: a default may be left out), anything else as the dashboard answers it (output).
 */
function componentSchemas(): Json {
  const uri = (id: string) => `#/components/schemas/${id}`;
  const [sent, answered] = (["input", "output"] as const).map(
    (io) => z.toJSONSchema(components, { ...OPTIONS, io, uri }).schemas as Record<string, Json>,
  );
  const bodies = new Set(OPERATIONS.flatMap((op) => (op.body ? [op.body.name] : [])));
  return Object.fromEntries(
    Object.keys(answered!).map((name) => {
      const { $schema: _dialect, $id: _id, ...schema } = (bodies.has(name) ? sent : answered)![name]!;
      return [name, schema];
    }),
  );
}

/**
 * The OpenAPI 3.1 document of the dashboard's API. It names no server: a client is pointed at
 * the dashboard it calls.
 */
export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationOf(op);
  return {
    openapi: "3.1.0",
    info: {
      title: "Treasury dashboard API",
      version: "1",
      description:
        "What a script may call, through the same controls as the browser: the repeat question, the limits, the price guard, four eyes and the journal. " +
        `A script sends a personal API token (\`Authorization: Bearer ${TOKEN_SECRET_PREFIX}…\`, made on the API tokens page); ` +
        "a browser's session cookie works too, a change then only from the dashboard's own origin. Every error is an RFC 9457 problem.",
    },
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        apiToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: `${TOKEN_SECRET_PREFIX}…`,
          description:
            "A personal API token: acts as its owner with the owner's role now, narrowed by its scopes (read, trade, transfer, batch). Only in the Authorization header.",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "A browser's session (`__Secure-next-auth.session-token` over https).",
        },
        metricsToken: { type: "http", scheme: "bearer", description: "The deployment's METRICS_TOKEN." },
      },
    },
  };
}
