import type { FieldValues, UseFormReturn } from "react-hook-form";
import { ApiProblem } from "@/lib/client/api";
import type { Problem } from "@/lib/spec/problem";

/** The problem behind a failed request, whatever failed. */
export function problemOf(error: unknown): Problem {
  return error instanceof ApiProblem
    ? error.problem
    : { type: "about:blank", title: "Error", status: 0, detail: String(error) };
}

/** A 400 from the server names fields: show each rule on its own field too. */
export function showFieldErrors<T extends FieldValues, O>(form: UseFormReturn<T, unknown, O>, problem: Problem): void {
  for (const e of (problem.meta?.errors as { field: string; message: string }[] | undefined) ?? []) {
    const field = e.field.split(".")[0]!;
    if (field in form.getValues()) form.setError(field as never, { type: "server", message: e.message });
  }
}
