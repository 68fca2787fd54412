import "server-only";
import type { CreatePreview } from "@/lib/shared/create-preview";
import { rolesThatCan } from "@/lib/shared/roles";
import type { SignedInUser } from "../auth/session";
import type { Runtime } from "../runtime";
import { readFacts, readFunds } from "./controls/facts";
import { totalsFor } from "./controls/totals";
import { verdictOf } from "./controls/verdict";
import { recipientElsewhereOf, type Create } from "./create";
import { parseOrder, parseTransfer } from "./parse";
import { requireScopeOf } from "./pipeline";

/**
 * The review's dry run: the controls' verdict on a create as if it were sent now (steps 1 and 4
 * of the create path, lib/server/create/pipeline.ts), with the person's totals and the funds,
 * read outside any lock, writing nothing and sending nothing. The price guard is weighed as if
 * confirmed, so that what follows it is told too; whether it will be asked is said apart.
 * The repeat question and the ref_id are the send's business: a preview neither binds nor asks.
 */
export async function previewOrder(rt: Runtime, profileId: string, input: unknown, user: SignedInUser) {
  return preview(rt, parseOrder(profileId, input), user);
}

export async function previewTransfer(rt: Runtime, input: unknown, user: SignedInUser) {
  return preview(rt, parseTransfer(input), user);
}

async function preview(rt: Runtime, create: Create, user: SignedInUser): Promise<CreatePreview> {
  requireScopeOf(rt, create.kind);
  const [facts, funds] = await Promise.all([readFacts(rt, create, user.role, user.email), readFunds(rt, create)]);
  const now = new Date(rt.clock.now());
  const totals = await totalsFor(rt.db, user.email, create, now);
  const confirmedMarket = create.kind === "order" ? create.request.market : null;
  const verdict = verdictOf({ create, facts: { ...facts, funds }, ...totals, confirmedMarket });
  const weighed = {
    kind: create.kind,
    value_usd: facts.valueUsd,
    weighed_as_transfer: recipientElsewhereOf(create) !== undefined,
  };
  if ("refuse" in verdict) return { outcome: "refuse", ...weighed, price_guard: null, problem: verdict.refuse.problem };
  if ("send" in verdict) return { outcome: "send", ...weighed, price_guard: verdict.send.guardConfirmed ?? null };
  const { rule, reason, guardConfirmed, rollingTotalUsd } = verdict.hold;
  return {
    outcome: "hold",
    ...weighed,
    price_guard: guardConfirmed ?? null,
    hold: {
      rule,
      reason,
      rolling_total_usd: rollingTotalUsd,
      approvers: rolesThatCan("approve"),
      expires_at: new Date(now.getTime() + rule.open_minutes * 60_000).toISOString(),
      price_decided_at_approval: create.kind === "order" && create.request.type === "MARKET",
    },
  };
}
