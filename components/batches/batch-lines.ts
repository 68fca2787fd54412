import type { BatchError, BatchRow } from "@/lib/shared/batch-rows";
import { readCsv } from "@/lib/shared/csv";
import type { PlannedTransfer } from "@/lib/shared/rebalance-plan";

/**
 * The batch as the preview table draws it, line by line, whatever the back end made of it: the
 * cells as written in the file (or the plan), so a refused row is shown where it is, each of its
 * refused cells with its message (the back end's `errors`, by row and column), and the rows as
 * read once the whole file holds. Pure, so the table's rules are tested without a browser.
 */

/** The table's columns, and the names the CSV file and the JSON body give each. */
export const LINE_COLUMNS = [
  { id: "from", label: "From", fields: ["from_profile", "from_profile_id"] },
  { id: "to", label: "To", fields: ["to_profile", "to_profile_id"] },
  { id: "asset", label: "Asset", fields: ["asset"] },
  { id: "amount", label: "Amount", fields: ["amount"] },
  { id: "ref_id", label: "Ref ID", fields: ["ref_id"] },
  { id: "note", label: "Note", fields: ["note", "metadata"] },
] as const;

export type LineColumn = (typeof LINE_COLUMNS)[number]["id"];

/** One transfer of the batch as written: its row (1 is the first after the header) and its cells. */
export interface BatchLine {
  row: number;
  cells: Partial<Record<LineColumn, string>>;
  /** The row as the back end read it, once the whole batch holds. */
  read?: BatchRow;
}

const columnOf = new Map<string, LineColumn>(LINE_COLUMNS.flatMap((c) => c.fields.map((f) => [f, c.id] as const)));

/**
 * A CSV file's transfers as written, for showing: the header's columns (trimmed, any case) and
 * each row's cells under them. Nothing is checked here (the back end is the one reader that
 * decides); text that cannot be read as CSV shows no rows, and the back end says why.
 */
export function linesOfCsv(text: string): BatchLine[] {
  const read = readCsv(text.startsWith("\uFEFF") ? text.slice(1) : text);
  if (!read.ok || read.records.length === 0) return [];
  const header = read.records[0]!.map((c) => columnOf.get(c.trim().toLowerCase()));
  let records = read.records.slice(1);
  // Blank lines at the end are not rows (as the back end reads them).
  while (records.length > 0 && records.at(-1)!.every((c) => c.trim() === "")) records = records.slice(0, -1);
  return records.map((cells, i) => {
    const line: BatchLine = { row: i + 1, cells: {} };
    cells.forEach((cell, at) => {
      const column = header[at];
      if (column) line.cells[column] = cell.trim();
    });
    return line;
  });
}

/** A rebalancing plan's transfers as written in the JSON body. */
export const linesOfPlan = (transfers: readonly PlannedTransfer[]): BatchLine[] =>
  transfers.map((t, i) => ({
    row: i + 1,
    cells: { from: t.from_profile_id, to: t.to_profile_id, asset: t.asset, amount: t.amount },
  }));

/** The rows as the back end read them, each beside its line. */
export function withRowsRead(lines: readonly BatchLine[], rows: readonly BatchRow[]): BatchLine[] {
  const byRow = new Map(rows.map((r) => [r.row, r]));
  return lines.map((line) => {
    const read = byRow.get(line.row);
    return read ? { ...line, read } : line;
  });
}

/** The back end's errors, placed: each on its cell, each whole row's on its row, the rest above the table. */
export interface PlacedErrors {
  /** The file as a whole (its header, its encoding, its size) and anything with no line of its own. */
  file: BatchError[];
  /** "row:column" -> the messages of that cell. */
  cells: Map<string, string[]>;
  /** row -> the messages about the whole row (blank, cell count). */
  rows: Map<number, string[]>;
}

export const cellKey = (row: number, column: LineColumn): string => `${row}:${column}`;

export function placeErrors(errors: readonly BatchError[], lines: readonly BatchLine[]): PlacedErrors {
  const rows = new Set(lines.map((l) => l.row));
  const placed: PlacedErrors = { file: [], cells: new Map(), rows: new Map() };
  const push = <K>(map: Map<K, string[]>, key: K, message: string) => map.set(key, [...(map.get(key) ?? []), message]);
  for (const error of errors) {
    const column = columnOf.get(error.field);
    if (error.row === 0 || !rows.has(error.row) || error.field === "file" || error.field === "body") {
      placed.file.push(error);
    } else if (column) {
      push(placed.cells, cellKey(error.row, column), error.message);
    } else {
      push(placed.rows, error.row, error.message);
    }
  }
  return placed;
}

/** A file's refused rows are all shown; of the rest, the first SHOWN_ROWS. */
export const SHOWN_ROWS = 100;

/** The lines the table shows: every one with an error, and the first `limit` of the others, in row order. */
export function shownLines(lines: readonly BatchLine[], placed: PlacedErrors, limit = SHOWN_ROWS): BatchLine[] {
  const refused = new Set<number>([...placed.rows.keys()]);
  for (const key of placed.cells.keys()) refused.add(Number(key.split(":")[0]));
  let others = 0;
  return lines.filter((line) => refused.has(line.row) || others++ < limit);
}
