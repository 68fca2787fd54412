import { createInternalTransferRequestSchema } from "@/lib/spec";
import { problems } from "../engine/problems";
import { toTransferRecord } from "../engine/records";
import { json, jsonBody, parseOr400, pathId } from "@/lib/server/http/toolkit";
import type { Handler } from "./context";
import { page, paddedKey } from "./pages";
import { readListTransfersQuery, transferMatches } from "./transfer-filters";

/** POST /v2/transfer/internal: the DEBIT leg, PENDING. */
export const createInternalTransfer: Handler = async ({ request, caller, sandbox }) => {
  const body = parseOr400(createInternalTransferRequestSchema, await jsonBody(request));
  const debit = sandbox.run((ex) => ex.createInternalTransfer(caller.customerId, body));
  return json(toTransferRecord(debit));
};

/** GET /v2/transfer/transfers/{id} */
export const getTransfer: Handler = ({ params, caller, sandbox }) => {
  const id = pathId("id", params.id);
  const transfer = sandbox.exchange.transfers.get(id);
  if (!transfer || transfer.customerId !== caller.customerId) throw problems.notFound(`transfer not found: ${id}`);
  return json(toTransferRecord(transfer));
};

/**
 * GET /v2/transfer/transfers: newest first by created_at unless `order`/`order_by` say otherwise
 * (ascending by default when ordered by updated_at, as the service orders them).
 */
export const listTransfers: Handler = ({ url, caller, sandbox }) => {
  const q = readListTransfersQuery(url);
  const byUpdate = q.order_by === "UPDATED_AT";
  const order = q.order ?? (byUpdate ? "ASC" : "DESC");
  const matches = transferMatches(q);
  const matching = [...sandbox.exchange.transfers.values()]
    .filter((t) => t.customerId === caller.customerId && matches(t))
    .map((t) => ({
      t,
      key: paddedKey(byUpdate ? t.updatedAt : t.createdAt, t.direction === "DEBIT" ? 1 : 0, t.id),
    }))
    .sort((a, b) => (a.key < b.key ? 1 : -1) * (order === "DESC" ? 1 : -1));
  const result = page(matching, (x) => x.key, q.limit, q.page_cursor, order);
  return json({ ...result, items: result.items.map((x) => toTransferRecord(x.t)) });
};
