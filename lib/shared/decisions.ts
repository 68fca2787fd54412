/**
 * An approver's decisions, as the Approvals page and the back end both hold them. Apart from
 * the schema (reject-reason.ts), so the page's first load carries no zod for it.
 */

/** A rejection's reason, kept and shown to the requester: at most this many characters, trimmed. */
export const REJECT_REASON_MAX_CHARS = 500;
