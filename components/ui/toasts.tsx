"use client";

import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import {
  addNotice,
  dismissNotice,
  markRead,
  noticeStorageKey,
  readNotices,
  TOAST_SHOWN_MS,
  type Notice,
  type NoticeWords,
} from "@/lib/client/notice-log";

type Notify = (notice: NoticeWords) => void;

/** This session's notices, newest first, and the ones shown as toasts now. */
interface NoticesState {
  notices: Notice[];
  toasts: Notice[];
  /** Marks one notice read (its toast closed), or all of them (the list opened). */
  markRead(id?: string): void;
  dismiss(id: string): void;
  dismissAll(): void;
  closeToast(id: string): void;
}

const NotifyContext = createContext<Notify>(() => {});
const NoticesContext = createContext<NoticesState>({
  notices: [],
  toasts: [],
  markRead: () => {},
  dismiss: () => {},
  dismissAll: () => {},
  closeToast: () => {},
});

let nextId = 1;

/**
 * Every notice goes to the session's list (the header's Notices, kept in sessionStorage, so a
 * page change or a reload keeps it) and shows for TOAST_SHOWN_MS as a toast in the header's
 * own place for it (NoticeToasts): never over a control of the header or the page.
 */
export function ToastProvider({ user, children }: { user: string; children: ReactNode }) {
  const { notices, update } = useStoredNotices(noticeStorageKey(user));
  const [toasts, setToasts] = useState<Notice[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const hideToast = useCallback((id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((all) => all.filter((t) => t.id !== id));
  }, []);
  const notify = useCallback<Notify>(
    (words) => {
      const at = Date.now();
      const id = `${at.toString(36)}-${nextId++}`;
      update((log) => addNotice(log, words, id, at));
      const toast: Notice = { ...words, id, at, read: false };
      setToasts((all) => {
        // One event, one toast: a toast with the key of one on screen takes its place.
        const same = words.key === undefined ? -1 : all.findIndex((t) => t.key === words.key);
        if (same < 0) return [...all.slice(-4), toast];
        clearTimeout(timers.current.get(all[same]!.id));
        return all.map((t, i) => (i === same ? toast : t));
      });
      timers.current.set(
        id,
        setTimeout(() => hideToast(id), TOAST_SHOWN_MS),
      );
    },
    [update, hideToast],
  );
  const state = useMemo<NoticesState>(
    () => ({
      notices,
      toasts,
      markRead: (id) => update((log) => markRead(log, id)),
      dismiss: (id) => update((log) => dismissNotice(log, id)),
      dismissAll: () => update(() => []),
      closeToast: (id) => {
        hideToast(id);
        update((log) => markRead(log, id));
      },
    }),
    [notices, toasts, update, hideToast],
  );
  return (
    <NotifyContext.Provider value={notify}>
      <NoticesContext.Provider value={state}>{children}</NoticesContext.Provider>
    </NotifyContext.Provider>
  );
}

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
// Where sessionStorage cannot be used (storage off, full): the notices last as long as the page.
const memory = new Map<string, string>();

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function write(key: string, value: string) {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    memory.set(key, value);
  }
  for (const listener of listeners) listener();
}

/** The notices kept under `key`: none on the server and while hydrating, then the tab's. */
function useStoredNotices(key: string) {
  const raw = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
  const notices = useMemo(() => readNotices(raw), [raw]);
  const update = useCallback(
    (change: (log: Notice[]) => Notice[]) => write(key, JSON.stringify(change(readNotices(read(key))))),
    [key],
  );
  return { notices, update };
}

/**
 * The toasts, in a place of their own in the header (its room kept whether a toast shows or
 * not, so nothing moves when one comes): on a phone beside the Menu button, from `md` up the
 * free part of the header's rows. It covers no control of the header or the page: the newest
 * shows, clamped to its place (the Notices list has it whole), the others are read out only.
 */
export function NoticeToasts({ className = "" }: { className?: string }) {
  const { toasts, closeToast } = useNotices();
  const newest = toasts.at(-1);
  return (
    <div aria-live="polite" aria-label="New notices" role="region" className={`relative min-w-0 ${className}`}>
      {toasts.map((t) => (
        <div
          key={t.id}
          role="status"
          data-testid="toast"
          className={
            t === newest
              ? `absolute inset-0 flex items-center gap-1 overflow-hidden rounded-md border bg-surface pl-2 text-xs leading-3.5 md:text-sm md:leading-5 ${NOTICE_TONES[t.tone ?? "info"]}`
              : "sr-only"
          }
        >
          <p className="line-clamp-2 min-w-0 flex-1 [overflow-wrap:anywhere]">
            <span className="font-semibold">{t.title}</span>
            {t.detail && <span className="text-ink-muted"> {t.detail}</span>}
          </p>
          {t === newest && (
            <button
              type="button"
              onClick={() => closeToast(t.id)}
              aria-label="Dismiss notice"
              className="inline-flex size-7 shrink-0 items-center justify-center self-center rounded text-ink-muted hover:bg-surface-sunken hover:text-ink"
            >
              ×
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

/** A notice's border by its tone: green sent, red refused, amber ended otherwise. */
export const NOTICE_TONES = {
  info: "border-slate-300",
  success: "border-buy/40",
  warning: "border-warn/40",
  error: "border-sell/40",
};

/** `notify({ title, detail, tone, key })` gives a notice: a toast for a few seconds, then in the list. */
export const useToast = (): Notify => useContext(NotifyContext);

/** The session's notices and the toasts on screen, for the header. */
export const useNotices = (): NoticesState => useContext(NoticesContext);
