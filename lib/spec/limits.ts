/** The service's limits, in one place. */
export const METADATA_MAX_PAIRS = 6;
export const METADATA_MAX_CHARS = 100;
export const AWAIT_FILL_MAX_MILLIS = 10_000;
/** A GTT order must expire strictly more than this many ms after placement. */
export const GTT_MIN_LEAD_MILLIS = 10_000;
export const SELF_MATCH_PREVENTION_ID_MAX_CHARS = 36;
/** The service states no bound for ref_id; this keeps it a sane, loggable string. */
export const REF_ID_MAX_CHARS = 128;
export const IDENTIFIER_MAX_CHARS = 128;
/** An order's ref_id may be reused once it has been closed this long. */
export const REF_ID_REUSE_AFTER_MILLIS = 24 * 60 * 60 * 1000;

/** Length in characters as a person counts them (code points, not UTF-16 units). */
export const charCount = (text: string): number => [...text].length;
