import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { Problem } from "@/lib/spec/problem";

/** A 400 from the server names fields: show each rule on its own field too. */
export function showFieldErrors<T extends FieldValues, O>(form: UseFormReturn<T, unknown, O>, problem: Problem): void {
  for (const e of (problem.meta?.errors as { field: string; message: string }[] | undefined) ?? []) {
    const field = e.field.split(".")[0]!;
    if (field in form.getValues()) form.setError(field as never, { type: "server", message: e.message });
  }
}
