import { get, type FieldErrors, type FieldValues } from "react-hook-form";

/**
 * The message of a list field shown as a group of checkboxes (a token's scopes, a webhook's
 * events): the list's own rule, or its first refused item's (the schema's or the server's
 * `scopes.1`), shown once under the group.
 */
export function listErrorOf<T extends FieldValues>(errors: FieldErrors<T>, name: string): string | undefined {
  const own = (get(errors, name) as { message?: string } | undefined)?.message;
  if (own) return own;
  const each = get(errors, name) as unknown;
  if (Array.isArray(each)) return (each.find(Boolean) as { message?: string } | undefined)?.message;
  return undefined;
}
