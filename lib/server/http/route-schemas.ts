import * as z from "zod";
import * as zm from "zod/mini";
import { APPROVAL_STATUSES } from "@/lib/shared/approval";
import { rejectReasonSchema } from "@/lib/shared/reject-reason";
import { identifier, marketSchema } from "@/lib/spec";

/**
 * The schemas a route handler declares for itself (its query or body), kept here rather than in
 * the route file so that the OpenAPI document (lib/server/openapi/) is made from the very same ones.
 */

/** `GET /api/approvals`: `?status=PENDING` is the approvers' inbox. */
export const approvalsQuerySchema = z.object({
  status: z.enum(APPROVAL_STATUSES, { error: `status must be one of ${APPROVAL_STATUSES.join(", ")}` }).optional(),
});

/** `POST /api/approvals/{id}/reject`: the reason, kept and shown to the requester. */
export const rejectBodySchema = zm.strictObject({ reason: rejectReasonSchema });

/** `GET /api/events`, repeated parameters: `?profiles=A&profiles=B&markets=BTCUSD`. */
export const liveWantsQuerySchema = z.object({
  profiles: z.array(identifier("profiles")).max(50, "profiles may list at most 50 profiles").default([]),
  markets: z.array(marketSchema).max(50, "markets may list at most 50 markets").default([]),
});
