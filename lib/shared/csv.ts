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

/** What `readCsv` answers: the records (the header is records[0]), or where and why it could not. */
export type CsvRead = { ok: true; records: string[][] } | { ok: false; record: number; message: string };

const UNQUOTED = /[^,\r\n]*/y;

/**
 * RFC 4180 CSV text to its records: quoted cells (commas, line breaks and doubled quotes
 * inside), CRLF, LF or a lone CR between records, a final line break or none. A quote inside
 * an unquoted cell is kept as written (5" pipe); a quoted cell left open, or text after its
 * closing quote, is refused with the record it is in (0-based).
 */
export function readCsv(text: string): CsvRead {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    const cell = text[i] === '"' ? quotedCell(text, i) : unquotedCell(text, i);
    if (typeof cell === "string") return { ok: false, record: records.length, message: cell };
    record.push(cell.value);
    i = cell.end;
    if (text[i] === ",") {
      i++;
      if (i < text.length) continue;
      // A comma at the very end still ends a cell: the empty one after it.
      record.push("");
    }
    records.push(record);
    record = [];
    i += text.startsWith("\r\n", i) ? 2 : 1;
  }
  return { ok: true, records };
}

type ReadCell = { value: string; end: number };

function unquotedCell(text: string, start: number): ReadCell {
  UNQUOTED.lastIndex = start;
  UNQUOTED.test(text);
  return { value: text.slice(start, UNQUOTED.lastIndex), end: UNQUOTED.lastIndex };
}

/** A quoted cell from its opening quote, or why it is malformed. */
function quotedCell(text: string, start: number): ReadCell | string {
  let value = "";
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return "A quoted cell is never closed: a cell that starts with a quote must end with one";
    value += text.slice(from, quote);
    if (text[quote + 1] !== '"') {
      const end = quote + 1;
      if (end < text.length && !/[,\r\n]/.test(text[end]!)) {
        return 'A quoted cell has text after its closing quote: write a quote inside a quoted cell as two ("")';
      }
      return { value, end };
    }
    value += '"';
    from = quote + 2;
  }
}
