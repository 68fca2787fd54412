import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { $ZodType } from "zod/v4/core";

/** What a form hands over once every rule holds: the request exactly as the service takes it. */
export interface FormOutput<Request> {
  request: Request;
}

export interface SpecResolverParts<Values extends FieldValues, Request, Output extends FormOutput<Request>> {
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
export function specResolver<Values extends FieldValues, Request, Output extends FormOutput<Request>>(
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
    const errors: FieldErrors<Values> = { ...(result.errors as FieldErrors<Values>), ...parts.formErrors(values) };
    if (Object.keys(errors).length > 0) return { values: {}, errors };
    const checked = checkFacts(result.values as Request, values, context);
    if (Object.keys(checked).length > 0) return { values: {}, errors: checked };
    return { values: parts.output(result.values as Request, values), errors: {} };
  };
}

const noChecks = () => ({});
