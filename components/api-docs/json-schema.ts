import { schemaName, type JsonSchema } from "./openapi";

/**
 * A JSON Schema read for people: what type a value has, what rules it keeps, and an object's
 * fields row by row, nested ones a level deeper. Pure, so the page renders it on the server.
 */

/** A value's type as the page writes it; a named schema is a link to its section. */
export type TypeDesc =
  | { kind: "plain"; name: string }
  | { kind: "ref"; name: string }
  | { kind: "array"; items: TypeDesc }
  | { kind: "enum"; values: string[] }
  | { kind: "const"; value: string }
  | { kind: "oneOf"; options: TypeDesc[] }
  | { kind: "map"; key: TypeDesc; value: TypeDesc };

/** One rule a value keeps: "length" `1 to 128`, "pattern" `^[A-Z]+$`. */
export interface Constraint {
  label: string;
  value: string;
}

/** One field of an object; `depth` 0 is the schema's own, 1 a field of one of those, … */
export interface FieldRow {
  name: string;
  /** The field it is inside (`limits`, `transfers[]`), for a reader who cannot see the indent. */
  parent?: string;
  depth: number;
  type: TypeDesc;
  required: boolean;
  constraints: Constraint[];
  description?: string;
  /** An object past the depth cap: its fields are not listed. */
  folded?: boolean;
}

/** How deep nested objects are listed: no schema of the document goes deeper. */
export const MAX_DEPTH = 3;

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

const isSchema = (x: JsonSchema | boolean | undefined): x is JsonSchema => typeof x === "object" && x !== null;

/** `{}`: any value at all. */
const isEmpty = (schema: JsonSchema) => Object.keys(schema).length === 0;

export function typeOf(schema: JsonSchema): TypeDesc {
  const ref = schema.$ref;
  if (ref) return schemaName(ref) ? { kind: "ref", name: schemaName(ref)! } : { kind: "plain", name: ref };
  if (schema.enum) return { kind: "enum", values: schema.enum.map(show) };
  if (schema.const !== undefined) return { kind: "const", value: show(schema.const) };
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return { kind: "oneOf", options: options.map(typeOf) };
  if (Array.isArray(schema.type)) return { kind: "plain", name: schema.type.join(" or ") };
  if (schema.type === "array") return { kind: "array", items: schema.items ? typeOf(schema.items) : plainAny };
  if (schema.type === "object" || (!schema.type && (schema.properties || schema.additionalProperties))) {
    const values = schema.additionalProperties;
    // A record: zod writes its keys as propertyNames and its values as additionalProperties.
    if (!schema.properties && (schema.propertyNames || (isSchema(values) && !isEmpty(values))))
      return {
        kind: "map",
        key: schema.propertyNames ? typeOf(schema.propertyNames) : { kind: "plain", name: "string" },
        value: isSchema(values) ? typeOf(values) : plainAny,
      };
    return { kind: "plain", name: "object" };
  }
  return schema.type ? { kind: "plain", name: schema.type } : plainAny;
}

const plainAny: TypeDesc = { kind: "plain", name: "any" };

/** zod's bounds of an integer (±2^53 − 1): they say "an integer", which the type says already. */
const SAFE = Number.MAX_SAFE_INTEGER;

const between = (label: string, min: number | undefined, max: number | undefined): Constraint[] =>
  min !== undefined && max !== undefined
    ? [{ label, value: `${min} to ${max}` }]
    : min !== undefined
      ? [{ label: `min ${label}`, value: String(min) }]
      : max !== undefined
        ? [{ label: `max ${label}`, value: String(max) }]
        : [];

/** The rules a value keeps beyond its type; an array's items' rules as "each …". */
export function constraintsOf(schema: JsonSchema): Constraint[] {
  const own: Constraint[] = [];
  if (schema.format) own.push({ label: "format", value: schema.format });
  // A format's own pattern (zod's date-time is a long regular expression) says no more than it.
  else if (schema.pattern) own.push({ label: "pattern", value: schema.pattern });
  own.push(...between("length", schema.minLength, schema.maxLength));
  own.push(
    ...between(
      "value",
      schema.minimum === -SAFE ? undefined : schema.minimum,
      schema.maximum === SAFE ? undefined : schema.maximum,
    ),
  );
  own.push(...between("items", schema.minItems, schema.maxItems));
  if (schema.default !== undefined) own.push({ label: "default", value: JSON.stringify(schema.default) });
  const items = schema.type === "array" && schema.items ? constraintsOf(schema.items) : [];
  return [...own, ...items.map((c) => ({ ...c, label: `each: ${c.label}` }))];
}

/**
 * The inline objects a field holds, whose fields are listed under it: its own properties, its
 * array's items', or those of each object it may be one of. A named schema is a link instead.
 */
function nestedOf(schema: JsonSchema, name: string): { schema: JsonSchema; parent: string }[] {
  if (schema.properties) return [{ schema, parent: name }];
  if (schema.type === "array" && schema.items?.properties) return [{ schema: schema.items, parent: `${name}[]` }];
  return (schema.anyOf ?? schema.oneOf ?? []).filter((o) => o.properties).map((o) => ({ schema: o, parent: name }));
}

/** An object's fields, and under each the fields of what it nests, down to MAX_DEPTH. */
export function fieldsOf(schema: JsonSchema, depth = 0, parent?: string): FieldRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const nested = nestedOf(field, parent ? `${parent}.${name}` : name);
    const folded = nested.length > 0 && depth >= MAX_DEPTH;
    const row: FieldRow = {
      name,
      ...(parent ? { parent } : {}),
      depth,
      type: typeOf(field),
      required: required.has(name),
      constraints: constraintsOf(field),
      ...(field.description ? { description: field.description } : {}),
      ...(folded ? { folded } : {}),
    };
    return [row, ...(folded ? [] : nested.flatMap((n) => fieldsOf(n.schema, depth + 1, n.parent)))];
  });
}
