import * as z from "zod";
import { assetSchema, positiveDecimal } from "@/lib/spec";
import { formatTrimmed } from "../engine/amounts";
import { json, jsonBody, parseOr400, pathId } from "@/lib/server/http/toolkit";
import type { Handler } from "./context";

/** GET /v2/profiles: the caller's profiles. */
export const listProfiles: Handler = ({ caller, sandbox }) => {
  const items = [...sandbox.exchange.profiles.values()]
    .filter((p) => p.customerId === caller.customerId)
    .map((p) => ({ id: p.id, nickname: p.nickname, type: p.type }));
  // One page holds them all (the service's default limit is 1,000): the last page has no cursor.
  return json({ items });
};

/** GET /v2/profiles/{profile_id}/balances */
export const listBalances: Handler = ({ params, caller, sandbox }) => {
  const profileId = pathId("profile_id", params.profile_id);
  sandbox.exchange.profileOf(caller.customerId, profileId);
  const items = sandbox.exchange.ledger
    .balancesOf(profileId)
    .map((b) => ({ asset: b.asset, available: formatTrimmed(b.available), trading: formatTrimmed(b.trading) }))
    .sort((a, b) => a.asset.localeCompare(b.asset));
  return json({ items });
};

const depositBody = z.strictObject({
  asset: assetSchema,
  amount: positiveDecimal("Amount"),
  crypto_network: z.string().optional(),
  crypto_address: z.string().optional(),
});

/** POST /v2/sandbox/profiles/{profile_id}/deposit: funds a profile for demos and tests. */
export const createSandboxDeposit: Handler = async ({ request, params, caller, sandbox }) => {
  const profileId = pathId("profile_id", params.profile_id);
  const body = parseOr400(depositBody, await jsonBody(request));
  const deposit = sandbox.run((ex) => ex.deposit(caller.customerId, profileId, body.asset, body.amount));
  return json({ activity_id: deposit.id });
};
