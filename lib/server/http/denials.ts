import "server-only";
import type { AuditEvent } from "../audit-trail";
import { log } from "../ops/log";

/** One entry per caller per minute at most, and one more counting the rest of that minute. */
export const DENIAL_WINDOW_MS = 60_000;
/** Callers recorded one by one per minute; past them, one line counts every other refusal. */
export const DENIED_CALLERS_PER_WINDOW = 100;

/**
 * Refused writes (`access.denied`) go to the audit trail without letting a flood grow it: the
 * first refusal of a caller (an address, with the person if signed in, and the reason) in a
 * minute is written at once; the caller's further refusals that minute are counted and written
 * as one entry when it ends (`detail.repeats`, the last request's subject). At most 100 callers
 * a minute are written this way; past them, one entry counts the rest (`detail.unrecorded`).
 * So however many addresses a flood comes from, the trail grows by at most 201 entries a minute,
 * and no refusal goes uncounted (but those of a minute the process ends in).
 */
export function denialLog(
  append: (event: AuditEvent) => Promise<unknown>,
  options: { windowMs?: number; callersPerWindow?: number } = {},
) {
  const windowMs = options.windowMs ?? DENIAL_WINDOW_MS;
  const perWindow = options.callersPerWindow ?? DENIED_CALLERS_PER_WINDOW;
  const callers = new Map<string, { repeats: number; last: AuditEvent }>();
  let unrecorded = 0;
  let timer: NodeJS.Timeout | undefined;

  const write = (event: AuditEvent) =>
    void append(event).catch((error: unknown) => log.error({ err: error }, "audit: a refusal was not recorded"));

  const endWindow = () => {
    timer = undefined;
    for (const { repeats, last } of callers.values()) {
      if (repeats > 0) write({ ...last, detail: { ...last.detail, repeats, window_seconds: windowMs / 1000 } });
    }
    if (unrecorded > 0) {
      write({
        action: "access.denied",
        detail: { reason: "too many callers", unrecorded, window_seconds: windowMs / 1000 },
      });
    }
    callers.clear();
    unrecorded = 0;
  };

  /** Records a refusal of the caller `key`. Never throws, never waits. */
  return function record(key: string, event: AuditEvent): void {
    if (!timer) {
      timer = setTimeout(endWindow, windowMs);
      timer.unref?.();
    }
    const known = callers.get(key);
    if (known) {
      known.repeats++;
      known.last = event;
    } else if (callers.size < perWindow) {
      callers.set(key, { repeats: 0, last: event });
      write(event);
    } else {
      unrecorded++;
    }
  };
}
