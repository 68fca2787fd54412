import "server-only";
import { methodNotAllowed } from "@/lib/server/http/toolkit";
import type { Action } from "@/lib/shared/roles";
import { csvResponse, type CsvRows } from "./csv-response";
import { withRole } from "../http/route";
import type { Runtime } from "../runtime";

/** What an export reads: its header, and its rows under the filters of `url` (a 400 for a refused one). */
export type Exporter = (rt: Runtime, url: URL) => { header: string[]; rows: CsvRows };

/**
 * The handlers of an `export.csv` route, the same for every table: the role check, the
 * streamed CSV of every match, and an audit entry saying who exported what under which
 * filters. The entry is written once the filters are accepted and before the download starts.
 */
export function csvExportRoute(name: string, exporter: Exporter, action: Action = "read") {
  const GET = withRole(action, async ({ request, runtime, user, ip }) => {
    const url = new URL(request.url);
    const { header, rows } = exporter(runtime, url);
    const response = await csvResponse(name, header, rows);
    await runtime.audit.append({
      action: "export.csv",
      actor: user,
      ip,
      subject: name,
      detail: { export: name, filters: filtersOf(url) },
    });
    return response;
  });
  const notAllowed = () => methodNotAllowed("GET");
  return { GET, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
}

/** The query as it was asked: one value as text, a repeated one as a list. */
function filtersOf(url: URL): Record<string, string | string[]> {
  const filters: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    filters[key] = values.length === 1 ? values[0]! : values;
  }
  return filters;
}
