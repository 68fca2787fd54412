import * as z from "zod/mini";
import { refIdSchema } from "@/lib/spec/fields";
import { REF_ID_MAX_CHARS } from "@/lib/spec/limits";
import { createInternalTransferRequestSchema } from "@/lib/spec/transfer";
import type { DeskProfile } from "./batch-profiles";
import { formatCount, parseAmountInput } from "./format";

/**
 * The rows of a batch of internal transfers (issue 27), however they arrived (CSV or JSON,
 * lib/shared/batch-file.ts), checked with the transfer form's rules: each row is read as the
 * form reads its fields and checked against lib/spec's Create Internal Transfer schema, so a
 * row is refused exactly where the form would refuse it, in the same words.
 */

/** The most transfers one batch may hold. */
export const BATCH_MAX_ROWS = 1000;

/** A row without a ref_id of its own gets `<batch ref_id>-<row>`. */
export const defaultRowRefId = (batchRefId: string, row: number): string => `${batchRefId}-${row}`;

/** The longest batch ref_id whose every row default (`<ref>-1000`) still fits refIdSchema. */
export const BATCH_REF_ID_MAX_CHARS = REF_ID_MAX_CHARS - `-${BATCH_MAX_ROWS}`.length;

/** One transfer of a batch, checked: the request the create path will send for it. */
export interface BatchRow {
  /** Its row in the file: 1 is the first row after the header (or transfers[0]). */
  row: number;
  from_profile_id: string;
  to_profile_id: string;
  asset: string;
  /** A plain decimal, as the service takes it: "1,250.00" was read as "1250.00". */
  amount: string;
  ref_id: string;
  metadata?: Record<string, string>;
}

/**
 * One refused field. `row` is 0 for the file or the batch as a whole (its header, its ref_id);
 * `field` is the file's own name for it (the CSV column, the JSON field), or "file", "body" or
 * "row" for what is wrong with the file, the JSON body or a whole row.
 */
export interface BatchError {
  row: number;
  field: string;
  message: string;
}

export type BatchRead = { ok: true; ref_id: string; rows: BatchRow[] } | { ok: false; errors: BatchError[] };

/** What a reader is told of the desk. */
export interface BatchOptions {
  /** The desk's profiles: a row may name only these. */
  profiles: readonly DeskProfile[];
}

export const refused = (...errors: BatchError[]): BatchRead => ({ ok: false, errors });

/** More rows than a batch may have: one error, on the first row over. */
export const tooMany = (count: number, field: string): BatchError => ({
  row: BATCH_MAX_ROWS + 1,
  field,
  message:
    `The batch has ${formatCount(count)} transfers and may have at most ${formatCount(BATCH_MAX_ROWS)}: ` +
    `split it into batches of ${formatCount(BATCH_MAX_ROWS)} or fewer`,
});

/** The two profiles of a row: the CSV column, the request's field, the form's label. */
export const SIDES = [
  ["from_profile", "from_profile_id", "From profile"],
  ["to_profile", "to_profile_id", "To profile"],
] as const;

/**
 * A row as read from the file, before the rules: the request's fields (profiles already named
 * by id), or none when the row could not be read as one; and what was already found wrong
 * with it, by field (a field refused here is not refused a second time by the schema).
 */
export interface Draft {
  row: number;
  request?: Record<string, unknown>;
  errors: BatchError[];
}

/** How the file names each of the request's fields, and the order its errors are listed in. */
export interface FileFields {
  nameOf: (requestField: string) => string;
  order: readonly string[];
}

/**
 * The request as the transfer form hands it to the schema (toTransferRequest in
 * components/transfers/transfer-form-values.ts): text trimmed, empty text left out, a grouped
 * amount made plain ("1,000,000.50" -> "1000000.50"). Anything else is passed on for the schema to name.
 */
function asTheFormSends(fields: Record<string, unknown>): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const v = typeof value === "string" ? value.trim() : value;
    if (v !== "" && v !== undefined) request[key] = key === "amount" && typeof v === "string" ? parseAmountInput(v) : v;
  }
  return request;
}

type Checked = { row: number; request?: z.infer<typeof createInternalTransferRequestSchema>; errors: BatchError[] };

/** One row against the schema: the first message for each field, as the form shows one. */
function checkDraft(draft: Draft, fields: FileFields): Checked {
  if (!draft.request) return { row: draft.row, errors: draft.errors };
  const result = z.safeParse(createInternalTransferRequestSchema, asTheFormSends(draft.request));
  if (result.success && draft.errors.length === 0) return { row: draft.row, request: result.data, errors: [] };
  const errors = [...draft.errors];
  const named = new Set(errors.map((e) => e.field));
  for (const issue of result.error?.issues ?? []) {
    const field = fields.nameOf(String(issue.path[0] ?? "row"));
    if (!named.has(field)) errors.push({ row: draft.row, field, message: issue.message });
    named.add(field);
  }
  return { row: draft.row, errors };
}

/** The ref_id a row will be sent with (its own when valid, else the batch's default), or undefined when neither is known. */
function refIdOf(draft: Draft, batchRefId: string | undefined): { ref: string; made: boolean } | undefined {
  const own = draft.request?.ref_id;
  const given = typeof own === "string" ? own.trim() : own;
  if (given === undefined || given === "")
    return batchRefId ? { ref: defaultRowRefId(batchRefId, draft.row), made: true } : undefined;
  return z.safeParse(refIdSchema, given).success ? { ref: given as string, made: false } : undefined;
}

const rowList = (rows: number[]) => `rows ${rows.slice(0, -1).join(", ")} and ${rows.at(-1)}`;

/** Two rows with one ref_id: both named, on each of them (a default one said to be made so). */
function repeatedRefIds(drafts: readonly Draft[], batchRefId: string | undefined, field: string): BatchError[] {
  const byRef = new Map<string, { row: number; made: boolean }[]>();
  for (const draft of drafts) {
    const id = refIdOf(draft, batchRefId);
    if (!id) continue;
    const group = byRef.get(id.ref) ?? [];
    group.push({ row: draft.row, made: id.made });
    byRef.set(id.ref, group);
  }
  const errors: BatchError[] = [];
  for (const [ref, group] of byRef) {
    if (group.length < 2) continue;
    const rows = rowList(group.map((g) => g.row));
    for (const { row, made } of group) {
      const how = made ? " (made for this row from the batch's ref ID)" : "";
      errors.push({
        row,
        field,
        message: `Ref ID "${ref}"${how} is used by ${rows}: each transfer needs a ref ID of its own`,
      });
    }
  }
  return errors;
}

/** Errors by row, then in the file's order of fields. */
function sorted(errors: BatchError[], order: readonly string[]): BatchError[] {
  const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length);
  return errors.sort((a, b) => a.row - b.row || rank(a.field) - rank(b.field));
}

/**
 * Every row checked, before anything is stored: the rows when all of them hold, else every
 * refused field of every row. `batchRefId` is undefined when the batch's own was refused
 * (`batchErrors` says why): no defaults can be made then.
 */
export function checkDrafts(
  drafts: readonly Draft[],
  batchRefId: string | undefined,
  batchErrors: readonly BatchError[],
  fields: FileFields,
): BatchRead {
  const checked = drafts.map((d) => checkDraft(d, fields));
  const errors = [
    ...batchErrors,
    ...checked.flatMap((c) => c.errors),
    ...repeatedRefIds(drafts, batchRefId, fields.nameOf("ref_id")),
  ];
  if (errors.length > 0 || batchRefId === undefined) return { ok: false, errors: sorted(errors, fields.order) };
  const rows = checked.map(({ row, request: r }) => ({
    row,
    from_profile_id: r!.from_profile_id,
    to_profile_id: r!.to_profile_id,
    asset: r!.asset,
    amount: r!.amount,
    ref_id: r!.ref_id ?? defaultRowRefId(batchRefId, row),
    ...(r!.metadata ? { metadata: r!.metadata } : {}),
  }));
  return { ok: true, ref_id: batchRefId, rows };
}

/** What is wrong with the batch's own ref_id (row 0): refIdSchema's rules, and room for `-1000`. */
export function batchRefIdErrors(refId: unknown, field = "ref_id"): BatchError[] {
  const result = z.safeParse(refIdSchema, refId);
  if (!result.success) return [{ row: 0, field, message: result.error.issues[0]!.message }];
  if (result.data.length <= BATCH_REF_ID_MAX_CHARS) return [];
  const message =
    `A batch's Ref ID may be at most ${BATCH_REF_ID_MAX_CHARS} characters: a row without a ref ID of its own ` +
    `gets the batch's followed by its row number ("${result.data.slice(0, 8)}…-${BATCH_MAX_ROWS}"), at most ${REF_ID_MAX_CHARS} characters`;
  return [{ row: 0, field, message }];
}
