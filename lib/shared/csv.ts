type Cell = string | number | boolean | null | undefined;

/**
 * One RFC 4180 CSV line, CRLF-terminated: every field quoted when it needs to be; amounts
 * stay the service's strings. Shared by the back end's streamed exports.
 */
export function csvLine(cells: readonly Cell[]): string {
  return cells.map(csvCell).join(",") + "\r\n";
}

function csvCell(v: Cell): string {
  const s = v === null || v === undefined ? "" : String(v);
  // A leading =, +, -, @, tab or CR makes a spreadsheet run the cell as a formula
  // ("-1+cmd|..." too): prefix it with ' so it stays text. Plain negative numbers stay numbers.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-\d+(\.\d+)?$/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) || safe !== s ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A whole CSV: the header line, then one line per row. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map(csvLine).join("");
}
