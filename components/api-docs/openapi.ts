/**
 * The parts of an OpenAPI 3.1 document the API docs page reads, and how it reads them. The page
 * (app/(dashboard)/api-docs) hands the document over as plain JSON: these types say what it
 * holds, without importing the back end that makes it.
 */

/** JSON Schema 2020-12 as zod writes it: only the keywords the page shows. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

type Content = Record<string, { schema?: JsonSchema }>;

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Content };
  responses?: Record<string, { description?: string; content?: Content }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One path and method of the document. */
export interface Endpoint {
  method: string;
  path: string;
  operation: OperationObject;
  /** The anchor of its section. */
  id: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation, grouped by its first tag, in the document's order. */
export function endpointsByTag(document: OpenApiDocument): Map<string, Endpoint[]> {
  const byTag = new Map<string, Endpoint[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const tag = operation.tags?.[0] ?? "other";
      const id = `op-${operation.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-")}`;
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, operation, id });
    }
  }
  return byTag;
}

/** `#/components/schemas/Order` → `Order`; any other reference → null. */
export function schemaName(ref: string | undefined): string | null {
  const match = ref?.match(/^#\/components\/schemas\/(.+)$/);
  return match ? match[1]! : null;
}

/** The anchor of a named schema's section. */
export const schemaAnchor = (name: string) => `schema-${name}`;

/**
 * Who may call an operation, as its security says: no one needed, a personal token with a scope
 * (beside a session), the deployment's metrics token, or a signed-in browser session only.
 */
export type Caller = { kind: "public" } | { kind: "token"; scope: string } | { kind: "metrics" } | { kind: "session" };

export function callerOf(operation: OperationObject): Caller {
  const security = operation.security ?? [];
  if (security.length === 0) return { kind: "public" };
  const token = security.find((s) => s.apiToken)?.apiToken;
  if (token) return { kind: "token", scope: token[0] ?? "" };
  if (security.some((s) => s.metricsToken)) return { kind: "metrics" };
  return { kind: "session" };
}

export type ResponseObject = NonNullable<OperationObject["responses"]>[string];

/** An answer is common when at least this share of the operations give it, word for word. */
const COMMON_SHARE = 0.25;

/**
 * The answers many operations give alike (an expired session's 401, the token rate's 429, …),
 * by status: described once on the page, and named by status in each operation's responses,
 * where listing them in full would bury the operation's own. At most one per status.
 */
export function commonResponses(document: OpenApiDocument): Map<string, ResponseObject> {
  const seen = new Map<string, { status: string; response: ResponseObject; count: number }>();
  let operations = 0;
  for (const item of Object.values(document.paths))
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      operations++;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const key = status + JSON.stringify(response);
        const entry = seen.get(key) ?? { status, response, count: 0 };
        entry.count++;
        seen.set(key, entry);
      }
    }
  const best = new Map<string, { response: ResponseObject; count: number }>();
  for (const { status, response, count } of seen.values())
    if (count >= operations * COMMON_SHARE && count > (best.get(status)?.count ?? 0))
      best.set(status, { response, count });
  return new Map([...best].sort(([a], [b]) => a.localeCompare(b)).map(([status, { response }]) => [status, response]));
}

/** Whether `response` is the common answer of its status, word for word. */
export const isCommon = (common: Map<string, ResponseObject>, status: string, response: ResponseObject) =>
  common.has(status) && JSON.stringify(common.get(status)) === JSON.stringify(response);
