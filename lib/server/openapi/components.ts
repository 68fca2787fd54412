import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";

/**
 * The document's named schemas (components.schemas), in one zod registry: z.toJSONSchema of the
 * registry writes a named schema nested in another as a $ref to it, so a client generated from
 * the document has one Approval type, one Order type, not a copy per answer.
 */

/** A named body or answer: the zod schema, and its name under components.schemas. */
export interface Named<S extends $ZodType = $ZodType> {
  name: string;
  schema: S;
}

export const components = z.registry<{ id: string }>();

/** `schema` under `name` in the document; each schema is named once. */
export function named<S extends $ZodType>(name: string, schema: S): Named<S> {
  components.add(schema, { id: name });
  return { name, schema };
}
