import * as z from "zod";
import { createInternalTransferRequestSchema, transferStatusSchema, transferTypeSchema } from "@/lib/spec";
import { problems } from "../engine/problems";
import { toTransferRecord } from "../engine/records";
import { json, jsonBody, parseOr400, pathId, queryOf } from "@/lib/http";
import type { Handler } from "./context";
import { page, paddedKey, pageFields } from "./pages";

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

/** The service's created_at bounds: RFC 3339 times, each optional. */
const bound = (name: string) => z.iso.datetime({ offset: true, error: `${name} must be an RFC 3339 time` }).optional();
const createdAtFields = {
  "created_at.gte": bound("created_at.gte"),
  "created_at.gt": bound("created_at.gt"),
  "created_at.lte": bound("created_at.lte"),
  "created_at.lt": bound("created_at.lt"),
};
type CreatedAtBounds = { [K in keyof typeof createdAtFields]?: string };

function withinCreatedAt(q: CreatedAtBounds, createdAt: number): boolean {
  const at = (v: string | undefined) => (v === undefined ? undefined : Date.parse(v));
  const [gte, gt, lte, lt] = [q["created_at.gte"], q["created_at.gt"], q["created_at.lte"], q["created_at.lt"]].map(at);
  return (
    (gte === undefined || createdAt >= gte) &&
    (gt === undefined || createdAt > gt) &&
    (lte === undefined || createdAt <= lte) &&
    (lt === undefined || createdAt < lt)
  );
}

const ids = (name: string) => z.array(z.string()).max(100, `${name} may list at most 100 ids`).optional();
const listTransfersQuery = z.strictObject({
  profile_ids: ids("profile_ids"),
  ref_ids: ids("ref_ids"),
  group_ids: ids("group_ids"),
  statuses: z.array(transferStatusSchema).optional(),
  type: z.optional(transferTypeSchema),
  ...createdAtFields,
  ...pageFields,
});

/** GET /v2/transfer/transfers, newest first. */
export const listTransfers: Handler = ({ url, caller, sandbox }) => {
  const q = parseOr400(
    listTransfersQuery,
    queryOf(
      url,
      ["type", "limit", "page_cursor", ...Object.keys(createdAtFields)],
      ["profile_ids", "ref_ids", "group_ids", "statuses"],
    ),
  );
  const within = (list: string[] | undefined, value: string | undefined) =>
    !list || (value !== undefined && list.includes(value));
  const matching = [...sandbox.exchange.transfers.values()]
    .filter(
      (t) =>
        t.customerId === caller.customerId &&
        within(q.profile_ids, t.profileId) &&
        within(q.ref_ids, t.refId) &&
        within(q.group_ids, t.groupId) &&
        within(q.statuses, t.status) &&
        (!q.type || t.type === q.type) &&
        withinCreatedAt(q, t.createdAt),
    )
    .map((t) => ({ t, key: paddedKey(t.createdAt, t.direction === "DEBIT" ? 1 : 0, t.id) }))
    .sort((a, b) => (a.key < b.key ? 1 : -1));
  const result = page(matching, (x) => x.key, q.limit, q.page_cursor);
  return json({ items: result.items.map((x) => toTransferRecord(x.t)), next_page_cursor: result.next_page_cursor });
};
