import "server-only";
import type { Scope } from "@/lib/spec";
import { UpstreamScopeMissing } from "./errors";

/**
 * The scopes the dashboard's credentials are configured with (SERVICE_SCOPES), which its one
 * token asks for: a feature whose scope is not among them is off. The client refuses such a
 * call unsent (client.ts); a route refuses it first, before it journals, values or reads anything.
 */
export const hasScope = (scope: Scope, granted: readonly string[]): boolean => granted.includes(scope);

/** Throws the 403 "The service's credentials lack …" (the route wrapper answers it) when `scope` is not granted. */
export function requireScope(scope: Scope, granted: readonly string[]): void {
  if (!hasScope(scope, granted)) throw new UpstreamScopeMissing(scope);
}
