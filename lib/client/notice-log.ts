/**
 * This session's notices, newest first: what a toast said, kept after the toast has gone until
 * the person has read it (opened the Notices list) or dismissed it. Pure: the list is kept in
 * sessionStorage by the notices provider (components/ui/toasts.tsx), so a reload keeps it.
 */

/** How long a toast shows before it leaves only its notice in the list. */
export const TOAST_SHOWN_MS = 8_000;

/** The most notices kept: the oldest go first. */
export const NOTICES_KEPT = 50;

export type NoticeTone = "info" | "success" | "warning" | "error";

/** What a notice says: an order filled or cancelled, a transfer completed, a request decided. */
export interface NoticeWords {
  title: string;
  detail?: string;
  tone?: NoticeTone;
  /**
   * One event, one notice: a notice with the key of an earlier one replaces it (the order's end,
   * told by the table that cancelled it and by the ticket's card that follows it).
   */
  key?: string;
}

export interface Notice extends NoticeWords {
  id: string;
  /** When it was given, in epoch milliseconds. */
  at: number;
  read: boolean;
}

/** `words` as the newest notice, in place of one with its key. */
export function addNotice(log: readonly Notice[], words: NoticeWords, id: string, at: number): Notice[] {
  const others = words.key === undefined ? log : log.filter((n) => n.key !== words.key);
  return [{ ...words, id, at, read: false }, ...others].slice(0, NOTICES_KEPT);
}

/** The notice `id` read (its toast closed), or every one (the list opened). */
export const markRead = (log: readonly Notice[], id?: string): Notice[] =>
  log.map((n) => (n.read || (id !== undefined && n.id !== id) ? n : { ...n, read: true }));

export const dismissNotice = (log: readonly Notice[], id: string): Notice[] => log.filter((n) => n.id !== id);

export const unreadCount = (log: readonly Notice[]): number => log.filter((n) => !n.read).length;

/** Where one person's notices are kept in the tab's sessionStorage. */
export const noticeStorageKey = (user: string): string => `dashboard.notices:${user}`;

const TONES = new Set<string>(["info", "success", "warning", "error"]);

const isNotice = (v: unknown): v is Notice => {
  const n = v as Partial<Notice> | null;
  return (
    typeof n === "object" &&
    n !== null &&
    typeof n.id === "string" &&
    typeof n.title === "string" &&
    typeof n.at === "number" &&
    typeof n.read === "boolean" &&
    (n.detail === undefined || typeof n.detail === "string") &&
    (n.key === undefined || typeof n.key === "string") &&
    (n.tone === undefined || TONES.has(n.tone))
  );
};

/** The notices kept as `raw` (sessionStorage's text); none when it is missing or not a list of notices. */
export function readNotices(raw: string | null): Notice[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isNotice).slice(0, NOTICES_KEPT) : [];
  } catch {
    return [];
  }
}
