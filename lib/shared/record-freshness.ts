import { ORDER_STATUSES, TRANSFER_STATUSES } from "@/lib/spec/enums";

/** An order or a transfer as far as its progress goes. */
interface Progress {
  status: string;
  modified_at?: string;
  updated_at?: string;
}

/** Statuses in the order a record moves through them (the finals last), for both kinds. */
const RANK = new Map<string, number>([
  ...ORDER_STATUSES.map((s, i) => [s, i] as const),
  ...TRANSFER_STATUSES.map((s, i) => [s, i] as const),
]);
const rank = (r: Progress) => RANK.get(r.status) ?? -1;
const changedAt = (r: Progress) => Date.parse(r.modified_at ?? r.updated_at ?? "");

/**
 * Whether `incoming` is an older state of the record than `shown`. The create's own answer
 * (SUBMITTED) and the watcher's next read (OPEN) travel separately and may cross on the way;
 * the older must not undo the newer, or a resting order would show SUBMITTED until reloaded.
 */
export function isOlderState(incoming: Progress, shown: Progress): boolean {
  const [a, b] = [changedAt(incoming), changedAt(shown)];
  if (!Number.isNaN(a) && !Number.isNaN(b) && a !== b) return a < b;
  return rank(incoming) < rank(shown);
}
