import { indexProfiles, profileNamed, type ProfileIndex } from "./batch-profiles";
import {
  BATCH_MAX_ROWS,
  batchRefIdErrors,
  checkDrafts,
  refused,
  SIDES,
  tooMany,
  type BatchError,
  type BatchOptions,
  type BatchRead,
  type Draft,
  type FileFields,
} from "./batch-rows";
import { readCsv } from "./csv";

/** A batch of transfers as a CSV file, as Excel and other spreadsheets save one (issue 27). */

const fileError = (message: string, row = 0): BatchError => ({ row, field: "file", message });

/** The file's columns and the request's field each fills (a note becomes the metadata `{note}`). */
const CSV_COLUMNS = new Map([
  ["from_profile", "from_profile_id"],
  ["to_profile", "to_profile_id"],
  ["asset", "asset"],
  ["amount", "amount"],
  ["ref_id", "ref_id"],
  ["note", "metadata"],
]);
const REQUIRED_COLUMNS = ["from_profile", "to_profile", "asset", "amount"];
const COLUMNS_IN_WORDS = "from_profile, to_profile, asset and amount, and optionally ref_id and note";
const COLUMN_OF = new Map([...CSV_COLUMNS].map(([column, field]) => [field, column]));
const CSV_FIELDS: FileFields = {
  nameOf: (field) => COLUMN_OF.get(field) ?? field,
  order: ["file", "row", ...CSV_COLUMNS.keys()],
};
const SAVE_AS = 'save it as "CSV UTF-8" (in Excel: File, Save As, CSV UTF-8)';
const BOM = "\uFEFF";

/** Byte-order marks of other encodings: UTF-32's before UTF-16's, which begins the same. */
const FOREIGN_BOMS: [number[], string][] = [
  [[0xff, 0xfe, 0, 0], "UTF-32"],
  [[0, 0, 0xfe, 0xff], "UTF-32"],
  [[0xff, 0xfe], "UTF-16"],
  [[0xfe, 0xff], "UTF-16"],
];

/**
 * The file as text. A UTF-8 byte-order mark at its very start is what Excel writes and is
 * dropped; any other is refused (see strayBom), as is a file that is not UTF-8.
 */
function decodeUtf8(bytes: Uint8Array): string | BatchError {
  const foreign = FOREIGN_BOMS.find(([mark]) => mark.every((b, i) => bytes[i] === b));
  if (foreign)
    return fileError(`The file is ${foreign[1]} text (it starts with a ${foreign[1]} byte-order mark): ${SAVE_AS}`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return fileError(`The file is not UTF-8 text: ${SAVE_AS}`);
  }
  if (text.includes("\0")) return fileError(`The file holds NUL characters, as UTF-16 text does: ${SAVE_AS}`);
  return text.startsWith(BOM) ? text.slice(1) : text;
}

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === "");

/** Blank lines (or rows of empty cells, as spreadsheets write) at the end are not rows. */
function withoutTrailingBlanks(records: string[][]): string[][] {
  let end = records.length;
  while (end > 0 && isBlank(records[end - 1]!)) end--;
  return records.slice(0, end);
}

/** A byte-order mark past the file's start (two files joined, or one saved twice): refused. */
function strayBom(records: readonly string[][]): BatchError | undefined {
  const row = records.findIndex((cells) => cells.some((c) => c.includes(BOM)));
  if (row === -1) return undefined;
  const where = row === 0 ? "its header" : `row ${row}`;
  const message = `The file has a byte-order mark (U+FEFF) in ${where}, where only its very start may have one: it may be two files joined; ${SAVE_AS}`;
  return fileError(message, row);
}

/** The header's columns (trimmed, any case), or every missing, repeated or unknown one. */
function readHeader(cells: readonly string[]): { columns: string[] } | { errors: BatchError[] } {
  if (cells.length === 1 && /[;\t]/.test(cells[0]!)) {
    const by = cells[0]!.includes(";") ? "semicolons" : "tabs";
    return { errors: [fileError(`The columns are separated by ${by}: ${SAVE_AS}, which separates them by commas`)] };
  }
  const columns = cells.map((c) => c.trim().toLowerCase());
  const errors: BatchError[] = [];
  columns.forEach((column, i) => {
    const field = cells[i]!.trim() || `column ${i + 1}`;
    if (!CSV_COLUMNS.has(column)) {
      const what = column ? `Unknown column "${field}"` : `Column ${i + 1} has no name`;
      errors.push({ row: 0, field, message: `${what}: the columns are ${COLUMNS_IN_WORDS}` });
    } else if (columns.indexOf(column) !== i) {
      errors.push({ row: 0, field: column, message: `The header has two ${column} columns: keep one` });
    }
  });
  for (const column of REQUIRED_COLUMNS.filter((c) => !columns.includes(c))) {
    errors.push({
      row: 0,
      field: column,
      message: `The header has no ${column} column: the columns are ${COLUMNS_IN_WORDS}`,
    });
  }
  return errors.length > 0 ? { errors } : { columns };
}

/** A data row as the request's fields, its profiles named by id or nickname. */
function csvDraft(cells: readonly string[], row: number, columns: readonly string[], index: ProfileIndex): Draft {
  const rowError = (message: string): Draft => ({ row, errors: [{ row, field: "row", message }] });
  if (isBlank(cells)) return rowError("This row is blank: delete it, or fill it in");
  if (cells.length !== columns.length) {
    return rowError(
      `This row has ${cells.length} cells and the header ${columns.length} columns: ` +
        'a cell with a comma in it, such as an amount of "1,250.00", must be in double quotes',
    );
  }
  const cell = (column: string) => cells[columns.indexOf(column)]?.trim() ?? "";
  const request: Record<string, unknown> = { asset: cell("asset"), amount: cell("amount"), ref_id: cell("ref_id") };
  const errors: BatchError[] = [];
  for (const [column, field, label] of SIDES) {
    if (!cell(column)) continue;
    const named = profileNamed(cell(column), index, true, label);
    if ("id" in named) request[field] = named.id;
    else errors.push({ row, field: column, message: named.message });
  }
  if (cell("note")) request.metadata = { note: cell("note") };
  return { row, request, errors };
}

/**
 * A CSV file of transfers (`Content-Type: text/csv`): a header row of from_profile,
 * to_profile, asset and amount, and optionally ref_id and note; profiles by id or nickname.
 * `ref_id` is the batch's: a row without one of its own is sent as `<ref_id>-<row>`.
 */
export function readBatchCsv(file: Uint8Array | ArrayBuffer, options: BatchOptions & { ref_id: string }): BatchRead {
  const text = decodeUtf8(file instanceof Uint8Array ? file : new Uint8Array(file));
  if (typeof text !== "string") return refused(text);
  const read = readCsv(text);
  if (!read.ok) return refused(fileError(`Row ${read.record}: ${read.message}`, read.record));
  const records = withoutTrailingBlanks(read.records);
  if (records.length === 0) {
    return refused(
      fileError(`The file is empty: it needs a header row (${COLUMNS_IN_WORDS}), then a row for each transfer`),
    );
  }
  const stray = strayBom(records);
  if (stray) return refused(stray);
  const header = readHeader(records[0]!);
  if ("errors" in header) return refused(...header.errors);
  if (records.length === 1)
    return refused(fileError("The file has a header and no transfers: add a row for each transfer"));
  if (records.length - 1 > BATCH_MAX_ROWS) return refused(tooMany(records.length - 1, "file"));
  const index = indexProfiles(options.profiles);
  const drafts = records.slice(1).map((cells, i) => csvDraft(cells, i + 1, header.columns, index));
  const refErrors = batchRefIdErrors(options.ref_id);
  return checkDrafts(drafts, refErrors.length ? undefined : options.ref_id, refErrors, CSV_FIELDS);
}
