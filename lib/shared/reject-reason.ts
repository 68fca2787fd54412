import * as z from "zod/mini";
import { REJECT_REASON_MAX_CHARS } from "./decisions";

const REQUIRED = "Say why you reject this request: the requester will read it";

/**
 * A rejection's reason, checked alike by the reject route (`POST /api/approvals/{id}/reject`)
 * and by the Approvals page before it sends one: required, trimmed, at most
 * REJECT_REASON_MAX_CHARS. The page loads it with `await import()`.
 */
export const rejectReasonSchema = z
  .string({ error: REQUIRED })
  .check(
    z.trim(),
    z.minLength(1, REQUIRED),
    z.maxLength(REJECT_REASON_MAX_CHARS, `The reason may be at most ${REJECT_REASON_MAX_CHARS} characters`),
  );
