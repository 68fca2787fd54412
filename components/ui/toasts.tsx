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
 * band (NoticeToasts): never over the page's own controls.
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
 * The toasts, drawn over the header's own band (the header is their containing block, and they
 * are clipped to it), so they never cover a control of the page below, whatever its scroll: the
 * newest shows, the others are read out only. Clicks go through to the header under a toast,
 * except on its close button.
 */
export function NoticeToasts() {
  const { toasts, closeToast } = useNotices();
  const newest = toasts.at(-1);
  return (
    <div
      aria-live="polite"
      aria-label="New notices"
      role="region"
      className="pointer-events-none absolute inset-0 z-40 flex items-start justify-end overflow-hidden p-1 md:px-4"
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          role="status"
          data-testid="toast"
          className={
            t === newest
              ? `flex max-h-full w-full items-start gap-2 overflow-hidden rounded-md border bg-surface p-2 text-sm shadow-lg md:w-96 ${NOTICE_TONES[t.tone ?? "info"]}`
              : "sr-only"
          }
        >
          <div className="min-w-0 flex-1">
            <p className="line-clamp-3 font-semibold leading-snug">{t.title}</p>
            {t.detail && (
              <p className="mt-0.5 line-clamp-2 text-xs text-ink-muted [overflow-wrap:anywhere]">{t.detail}</p>
            )}
          </div>
          {t === newest && (
            <button
              type="button"
              onClick={() => closeToast(t.id)}
              aria-label="Dismiss notice"
              className="pointer-events-auto -m-1 inline-flex size-8 shrink-0 items-center justify-center rounded text-ink-muted hover:bg-surface-sunken hover:text-ink max-sm:size-11 pointer-coarse:size-11"
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
