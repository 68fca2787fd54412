import "server-only";
import { sql, type RawBuilder } from "kysely";

/**
 * `column` holds `text` anywhere, in any case (LIKE with its wildcards escaped), the same on
 * SQLite and PostgreSQL: how the Activity page's user filters match any part of an email.
 */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
