import * as z from "zod";
import {
  identifier,
  marketSchema,
  problem,
  ProblemError,
  validationProblem,
  type Market,
  type Problem,
} from "@/lib/spec";

/**
 * The HTTP vocabulary of the dashboard's back end and of the embedded sandbox alike: how a
 * request is read (body, path ids, query) and how a refusal is answered (problem+json).
 * A rule written here once is the same rule on both sides of the wire.
 */

/** JSON with a status; records and lists. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** An RFC 9457 problem response. */
export const problemResponse = (p: Problem, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(p), {
    status: p.status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });

/** The 405 for a method a route does not offer, naming those it does in `Allow`. */
export const methodNotAllowed = (...allowed: string[]): Response =>
  problemResponse(problem(405, "Method Not Allowed", `This operation takes ${allowed.join(" or ")}.`), {
    Allow: allowed.join(", "),
  });

/** Parses `input` with `schema`, or throws the 400 problem naming each field and rule. */
export function parseOr400<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw new ProblemError(validationProblem(result.error));
  return result.data;
}

/** A 400 problem about one field. */
export const fieldProblem = (field: string, message: string): ProblemError =>
  new ProblemError(problem(400, "Bad Request", `${field}: ${message}`, { errors: [{ field, message }] }));

/** What any request body may weigh unless its route says otherwise (64 KiB). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** What a batch of transfers may weigh (1 MiB): 1,000 rows with their ref_ids, notes or metadata. */
export const BATCH_BODY_LIMIT_BYTES = 1024 * 1024;

/** The cap on a request body to `pathname`: a batch's routes take a file, every other route 64 KiB. */
export const bodyLimitOf = (pathname: string): number =>
  /^\/api\/batches(?:\/preview)?\/?$/.test(pathname) ? BATCH_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;

const tooLarge = (limit: number) =>
  new ProblemError(
    problem(413, "Content Too Large", `The request body may be at most ${limit} bytes.`, { limit_bytes: limit }),
  );

/**
 * The request's body as bytes, read through a cap: a declared Content-Length past `limit` is
 * refused unread, and a body that streams past it is refused at the first chunk over, so
 * memory never holds more than `limit` plus one chunk. A 413 problem either way.
 */
export async function cappedBytes(request: Request, limit = BODY_LIMIT_BYTES): Promise<Uint8Array> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: cancelling one branch of a tee'd body settles only once the other is cancelled too.
      reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The request's body as UTF-8 text, read through the cap of cappedBytes. */
export const cappedText = async (request: Request, limit = BODY_LIMIT_BYTES): Promise<string> =>
  new TextDecoder().decode(await cappedBytes(request, limit));

/** True for `application/json`, with or without parameters such as charset. */
export const isJsonContentType = (type: string | null): boolean =>
  /^application\/json\s*(?:;|$)/i.test(type?.trim() ?? "");

/**
 * The request's JSON body, which must be an object: a 415 problem for any other content
 * type, 413 past the cap, 400 for anything that is not a JSON object.
 */
export async function jsonBody(request: Request, limit = BODY_LIMIT_BYTES): Promise<unknown> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new ProblemError(
      problem(415, "Unsupported Media Type", "The request body must be sent as Content-Type: application/json.", {
        accepted: ["application/json"],
      }),
    );
  }
  const text = await cappedText(request, limit);
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null && !Array.isArray(body)) return body;
  } catch {
    // answered below
  }
  throw fieldProblem("body", "The request body must be a JSON object");
}

/** A path segment checked by its field's rule; the problem names the parameter. */
export function pathParam<S extends z.core.$ZodType>(name: string, schema: S, value: string | undefined): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw fieldProblem(name, result.error.issues[0]!.message);
  return result.data;
}

/** A path segment naming an id: no "/", "..", or encoded slash passes. */
export function pathId(name: string, value: string | undefined): string {
  let schema = idSchemas.get(name);
  if (!schema) idSchemas.set(name, (schema = identifier(name)));
  return pathParam(name, schema, value);
}

// One schema per parameter name, built on first use: building one costs more than a parse.
const idSchemas = new Map<string, ReturnType<typeof identifier>>();

export const pathMarket = (value: string | undefined): Market => pathParam("market", marketSchema, value);

/** Query parameters: only the named ones pass (an unknown one is a 400); arrays come from repeated keys. */
export function queryOf(url: URL, scalars: readonly string[], arrays: readonly string[] = []) {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    if (arrays.includes(key)) query[key] = url.searchParams.getAll(key);
    else if (scalars.includes(key)) query[key] = url.searchParams.get(key)!;
    else throw fieldProblem(key, `Unknown query parameter "${key}"`);
  }
  return query;
}

/**
 * A query schema's parameter names as queryOf takes them, the repeated ones (arrays) apart: a
 * handler that reads its query with these accepts exactly what its schema, and so the OpenAPI
 * document made of it (lib/server/openapi/), names.
 */
export function queryNamesOf(schema: {
  shape: Record<string, z.core.$ZodType>;
}): [scalars: string[], arrays: string[]] {
  const names = Object.keys(schema.shape);
  const arrays = names.filter((name) => repeated(schema.shape[name]!));
  return [names.filter((name) => !arrays.includes(name)), arrays];
}

/** An array, or one wrapped in optional, default, nullable and the like. */
function repeated(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType };
  return def.type === "array" || (def.innerType !== undefined && repeated(def.innerType));
}
