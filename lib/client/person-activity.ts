/** What counts as the person doing something on the page. */
const INPUTS = ["pointerdown", "keydown", "wheel"] as const;

/**
 * Whether the person did something on the page (a key, a click or tap, a scroll) since a request
 * last said so. The dashboard's requests tell the server with a header (ACTIVITY_HEADER in
 * lib/server/auth/session.ts), which renews the session's idle timeout: the tab's background
 * polls carry it only when the person acted since, so an unattended tab lets the session end.
 */
export function personActivity(target?: Pick<EventTarget, "addEventListener">) {
  let acted = false;
  for (const type of INPUTS) target?.addEventListener(type, () => (acted = true), { capture: true, passive: true });
  return {
    /** True once after each input: the next request carries it, the rest do not. */
    take(): boolean {
      const was = acted;
      acted = false;
      return was;
    },
  };
}
