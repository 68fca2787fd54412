import "server-only";
import * as z from "zod";
import { identifier, marketSchema, validationProblem, type Market } from "@/lib/spec";
import { problem, ProblemError } from "../problem";

/** Parses with `schema` or throws the 400 problem naming each field and rule. */
export function parseOr400<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw new ProblemError(validationProblem(result.error));
  return result.data;
}

/** The request's JSON object body, or a 400 problem. */
export async function jsonBody(request: Request): Promise<unknown> {
  try {
    const body: unknown = await request.json();
    if (typeof body === "object" && body !== null && !Array.isArray(body)) return body;
  } catch {
    // answered below
  }
  throw new ProblemError(
    problem(400, "Bad Request", "body: the request body must be a JSON object", {
      errors: [{ field: "body", message: "The request body must be a JSON object" }],
    }),
  );
}

/** A path segment naming an id: no "/", "..", or encoded slash ever reaches the service. */
export function pathId(name: string, value: string): string {
  let schema = idSchemas.get(name);
  if (!schema) idSchemas.set(name, (schema = z.object({ [name]: identifier(name) })));
  return encodeURIComponent(parseOr400(schema, { [name]: value })[name] as string);
}

// Built once per name: building a zod object compiles its validator, which costs more than a parse.
const idSchemas = new Map<string, z.ZodObject>();
const marketPath = z.object({ market: marketSchema });

export const pathMarket = (value: string): Market => parseOr400(marketPath, { market: value }).market;

/** Query parameters of a list call: only the named ones pass; arrays come from repeated keys. */
export function queryOf(url: URL, scalars: readonly string[], arrays: readonly string[] = []) {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    if (arrays.includes(key)) query[key] = url.searchParams.getAll(key);
    else if (scalars.includes(key)) query[key] = url.searchParams.get(key)!;
    else {
      throw new ProblemError(
        problem(400, "Bad Request", `${key}: unknown query parameter`, {
          errors: [{ field: key, message: `Unknown query parameter "${key}"` }],
        }),
      );
    }
  }
  return query;
}
