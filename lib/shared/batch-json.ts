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

/** A batch of transfers as a JSON body, profiles named by id (issue 27). */

const JSON_FIELDS = ["from_profile_id", "to_profile_id", "asset", "amount", "ref_id", "metadata"];
const JSON_ROW_FIELDS: FileFields = { nameOf: (field) => field, order: ["body", "transfers", "row", ...JSON_FIELDS] };
const EXAMPLE_ROW = '{"from_profile_id": "…", "to_profile_id": "…", "asset": "USD", "amount": "1250.00"}';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function unknownFields(
  value: Record<string, unknown>,
  known: readonly string[],
  row: number,
  has: string,
): BatchError[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => ({ row, field: key, message: `Unknown field "${key}": ${has}` }));
}

/** One of `transfers`, its profiles checked to be the desk's (by id). */
function jsonDraft(value: unknown, row: number, index: ProfileIndex): Draft {
  if (!isObject(value)) {
    return { row, errors: [{ row, field: "row", message: `Each transfer must be an object such as ${EXAMPLE_ROW}` }] };
  }
  const has = "a transfer has from_profile_id, to_profile_id, asset, amount, and optionally ref_id and metadata";
  const errors = unknownFields(value, JSON_FIELDS, row, has);
  const request = Object.fromEntries(Object.entries(value).filter(([key]) => JSON_FIELDS.includes(key)));
  for (const [, field, label] of SIDES) {
    const id = request[field];
    if (typeof id !== "string" || id.trim() === "") continue;
    const named = profileNamed(id.trim(), index, false, label);
    if ("message" in named) errors.push({ row, field, message: named.message });
  }
  return { row, request, errors };
}

/** The transfers of a JSON body, or why they cannot be read as rows (on row 0, or the first over the limit). */
function transfersOf(body: Record<string, unknown>): unknown[] | BatchError {
  const { transfers } = body;
  const error = (message: string) => ({ row: 0, field: "transfers", message });
  if (transfers === undefined) return error(`Transfers is required: a list such as [${EXAMPLE_ROW}]`);
  if (!Array.isArray(transfers)) return error(`Transfers must be a list such as [${EXAMPLE_ROW}]`);
  if (transfers.length === 0) return error("The batch has no transfers: add one for each transfer");
  if (transfers.length > BATCH_MAX_ROWS) return tooMany(transfers.length, "transfers");
  return transfers;
}

/**
 * A JSON body: `{"ref_id": "...", "transfers": [{from_profile_id, to_profile_id, asset,
 * amount, ref_id?, metadata?}]}`; profiles by id. Row 1 is transfers[0].
 */
export function readBatchJson(body: unknown, options: BatchOptions): BatchRead {
  if (!isObject(body)) {
    return refused({
      row: 0,
      field: "body",
      message: `The batch must be a JSON object such as {"ref_id": "…", "transfers": [${EXAMPLE_ROW}]}`,
    });
  }
  const transfers = transfersOf(body);
  if (!Array.isArray(transfers) && transfers.row > BATCH_MAX_ROWS) return refused(transfers);
  const refErrors = batchRefIdErrors(body.ref_id);
  const errors = [...unknownFields(body, ["ref_id", "transfers"], 0, "a batch has ref_id and transfers"), ...refErrors];
  if (!Array.isArray(transfers)) return refused(...errors, transfers);
  const index = indexProfiles(options.profiles);
  const drafts = transfers.map((t, i) => jsonDraft(t, i + 1, index));
  const batchRefId = refErrors.length ? undefined : (body.ref_id as string);
  return checkDrafts(drafts, batchRefId, errors, JSON_ROW_FIELDS);
}
