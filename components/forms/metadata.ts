/** Metadata as the form edits it: rows of key and value, in order. */
export interface MetadataRow {
  key: string;
  value: string;
}

/** Rows to the request's object; blank rows are dropped, an all-blank editor sends nothing. */
export function metadataOf(rows: MetadataRow[]): Record<string, string> | undefined {
  const filled = rows.filter((r) => r.key !== "" || r.value !== "");
  return filled.length ? Object.fromEntries(filled.map((r) => [r.key, r.value])) : undefined;
}

/** A repeated key would silently keep only the last value: the editor refuses it instead. */
export function duplicateKey(rows: MetadataRow[]): string | undefined {
  const seen = new Set<string>();
  for (const { key } of rows) {
    if (key !== "" && seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
}
