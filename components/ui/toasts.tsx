"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";

/** A short notice: an order filled or cancelled, a transfer completed, a request decided. */
export interface Toast {
  id: number;
  title: string;
  detail?: string;
  tone?: "info" | "success" | "warning" | "error";
  /**
   * One event, one notice: a notice with the key of one on screen replaces it in its place (the
   * order's end, told by the table that cancelled it and by the ticket's card that follows it).
   */
  key?: string;
}

type Notify = (toast: Omit<Toast, "id">) => void;

const ToastContext = createContext<Notify>(() => {});
const SHOWN_FOR_MS = 8_000;
let nextId = 1;

/**
 * Notices in one polite live region, each gone after a few seconds or when closed. They appear
 * at the edge of the screen away from the person's last click or tap (the bottom, unless that
 * was in the lower half), so a notice never lands on the row they act on or the next one; and
 * a notice lets clicks through to what is under it, except on its own close button.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [edge, setEdge] = useState<"top" | "bottom">("bottom");
  const lastPointerY = useRef<number | null>(null);
  useLastPointerY(lastPointerY);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((all) => all.filter((t) => t.id !== id));
  }, []);
  const notify = useCallback<Notify>(
    (toast) => {
      const id = nextId++;
      const y = lastPointerY.current;
      if (y !== null) setEdge(y > window.innerHeight / 2 ? "top" : "bottom");
      setToasts((all) => {
        const same = toast.key === undefined ? -1 : all.findIndex((t) => t.key === toast.key);
        if (same < 0) return [...all.slice(-4), { ...toast, id }];
        clearTimeout(timers.current.get(all[same]!.id));
        return all.map((t, i) => (i === same ? { ...toast, id } : t));
      });
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), SHOWN_FOR_MS),
      );
    },
    [dismiss, lastPointerY],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        aria-live="polite"
        aria-label="Notices"
        role="region"
        data-edge={edge}
        className={`pointer-events-none fixed inset-x-2 z-50 flex flex-col gap-2 sm:left-auto sm:right-4 sm:w-80 ${edge === "top" ? "top-2 sm:top-4" : "bottom-2 sm:bottom-4"}`}
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role="status"
            data-testid="toast"
            className={`rounded-md border bg-surface p-3 text-sm shadow-lg ${TONES[t.tone ?? "info"]}`}
          >
            <div className="flex items-start justify-between gap-2">
              <p className="font-semibold">{t.title}</p>
              <button
                type="button"
                onClick={() => dismiss(t.id)}
                aria-label="Dismiss notice"
                className="pointer-events-auto -m-1 inline-flex size-8 shrink-0 items-center justify-center rounded text-ink-muted hover:bg-surface-sunken hover:text-ink max-sm:size-11 pointer-coarse:size-11"
              >
                ×
              </button>
            </div>
            {t.detail && <p className="mt-1 text-ink-muted">{t.detail}</p>}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Keeps in `y` where the person last pressed, in viewport pixels. */
function useLastPointerY(y: { current: number | null }) {
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      y.current = e.clientY;
    };
    window.addEventListener("pointerdown", onDown, { capture: true, passive: true });
    return () => window.removeEventListener("pointerdown", onDown, { capture: true });
  }, [y]);
}

const TONES = {
  info: "border-slate-300",
  success: "border-buy/40",
  warning: "border-warn/40",
  error: "border-sell/40",
};

/** `notify({ title, detail, tone, key })` shows a notice. */
export const useToast = (): Notify => useContext(ToastContext);
