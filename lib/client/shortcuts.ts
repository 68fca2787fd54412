/**
 * The dashboard's keyboard shortcuts: one key each, never while typing in a field and never
 * with Ctrl, Alt or Meta (those belong to the browser and the system). Shift is allowed:
 * "?" needs it on most keyboards.
 */
export const SHORTCUTS = [
  { keys: ["B"], action: "Buy side on the order ticket" },
  { keys: ["S"], action: "Sell side on the order ticket" },
  { keys: ["/"], action: "Focus the table's filter" },
  { keys: ["?"], action: "Show this list of shortcuts" },
  { keys: ["Esc"], action: "Close this list" },
] as const;

/** What the shell itself answers; B and S are the order ticket's own. */
export type ShellShortcut = "help" | "filter";

interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  defaultPrevented: boolean;
  target: EventTarget | null;
}

/** True while the person types into a field, where every key is text. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as { tagName?: string; isContentEditable?: boolean } | null;
  if (!el?.tagName) return false;
  return ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) || el.isContentEditable === true;
}

/** The shell's shortcut for this key press, if it is one. */
export function shellShortcut(event: KeyEventLike): ShellShortcut | null {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || isTyping(event.target)) return null;
  if (event.key === "?") return "help";
  if (event.key === "/") return "filter";
  return null;
}
