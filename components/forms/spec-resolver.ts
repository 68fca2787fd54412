import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { $ZodType } from "zod/v4/core";

/** What a form hands over once every rule holds: the request exactly as the service takes it. */
export interface FormOutput<Request> {
  request: Request;
}

export interface SpecResolverParts<Values extends FieldValues, Request, Output extends FormOutput<unknown>> {
  /** The lib/spec schema, imported with `await import()`: zod loads on the first check, not with the page. */
  schema: () => Promise<$ZodType<Request, FieldValues>>;
  /** The request the form would send; malformed text is passed on for the schema to name. */
  toRequest: (values: Values) => Record<string, unknown>;
  /** The form's own rules beyond the service's (a profile chosen, no repeated metadata key). */
  formErrors: (values: Values) => FieldErrors<Values>;
  /** The output from the request the schema accepted (and the values, for what is not sent in it). */
  output: (request: Request, values: Values) => Output;
  /**
   * Rules on the accepted request against what the page knows, handed in as the form's
   * `context` (the balance that must cover it); run once every other rule holds. Loaded with
   * the schema, on the first check.
   */
  checks?: () => Promise<RequestChecks<Values, Request>>;
  /**
   * The form's field for a request field it shows under another name (a duration typed in
   * minutes, sent as `duration_seconds`): the schema's message lands on the field typed in.
   */
  fieldOf?: Readonly<Record<string, string>>;
}

export type RequestChecks<Values extends FieldValues, Request> = (
  request: Request,
  values: Values,
  context: unknown,
) => FieldErrors<Values>;

/**
 * react-hook-form's zod resolver on a lib/spec schema, so the browser refuses exactly what
 * the service refuses, on the same field, before anything is sent. The schema is loaded and
 * built once, on the first check, not on every keystroke.
 */
export function specResolver<Values extends FieldValues, Request, Output extends FormOutput<unknown>>(
  parts: SpecResolverParts<Values, Request, Output>,
): Resolver<Values, unknown, Output> {
  let check: Promise<[Resolver<FieldValues, unknown, Request>, RequestChecks<Values, Request>]> | undefined;
  return async (values, context, options) => {
    // A failed load (a chunk lost to the network) is tried again on the next check.
    check ??= Promise.all([parts.schema(), parts.checks?.() ?? noChecks]).then(
      ([schema, checks]) => [zodResolver(schema), checks],
      (error: unknown) => {
        check = undefined;
        throw error;
      },
    );
    const [checkRequest, checkFacts] = await check;
    const result = await checkRequest(parts.toRequest(values), context, {
      ...options,
      // The schema checks the request, not the form's fields: no field refs, no native messages.
      fields: {},
      names: undefined,
      shouldUseNativeValidation: false,
    });
    const errors: FieldErrors<Values> = {
      ...renamed(result.errors as FieldErrors<Values>, parts.fieldOf),
      ...parts.formErrors(values),
    };
    if (Object.keys(errors).length > 0) return { values: {}, errors };
    const checked = checkFacts(result.values as Request, values, context);
    if (Object.keys(checked).length > 0) return { values: {}, errors: checked };
    return { values: parts.output(result.values as Request, values), errors: {} };
  };
}

const noChecks = () => ({});

/** The errors keyed by the form's fields: each request field in `fieldOf` under the form's name for it. */
function renamed<Values extends FieldValues>(
  errors: FieldErrors<Values>,
  fieldOf: Readonly<Record<string, string>> | undefined,
): FieldErrors<Values> {
  if (!fieldOf) return errors;
  return Object.fromEntries(Object.entries(errors).map(([k, e]) => [fieldOf[k] ?? k, e])) as FieldErrors<Values>;
}
