import type { Caller, OperationObject } from "./openapi";

/**
 * A short curl call of an operation against the dashboard the page was read on, as a script
 * makes it: a personal token in Authorization (the metrics token for /api/metrics, nothing for
 * what needs no caller), a path's parameters as shell variables (`{profile_id}` → `$PROFILE_ID`:
 * curl would read the braces as a glob), a JSON body from a file. Null for what a token may never
 * call: a browser's session only.
 */
export function curlOf(origin: string, method: string, path: string, operation: OperationObject, caller: Caller) {
  if (caller.kind === "session") return null;
  const url = origin + path.replace(/\{(\w+)\}/g, (_, name: string) => `$${name.toUpperCase()}`);
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${url}"`];
  if (caller.kind === "token") lines.push(`-H "Authorization: Bearer $TOKEN"`);
  if (caller.kind === "metrics") lines.push(`-H "Authorization: Bearer $METRICS_TOKEN"`);
  if (operation.requestBody?.content?.["application/json"])
    lines.push(`-H "Content-Type: application/json"`, `--data @body.json`);
  return lines.join(" \\\n  ");
}
