"use client";

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

/** A short notice: an order filled or cancelled, a transfer completed, a request decided. */
export interface Toast {
  id: number;
  title: string;
  detail?: string;
  tone?: "info" | "success" | "warning" | "error";
}

type Notify = (toast: Omit<Toast, "id">) => void;

const ToastContext = createContext<Notify>(() => {});
const SHOWN_FOR_MS = 8_000;
let nextId = 1;

/** Notices in one polite live region, each gone after a few seconds or when closed. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const notify = useCallback<Notify>(
    (toast) => {
      const id = nextId++;
      setToasts((all) => [...all.slice(-4), { ...toast, id }]);
      setTimeout(() => dismiss(id), SHOWN_FOR_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        aria-live="polite"
        aria-label="Notices"
        role="region"
        className="pointer-events-none fixed bottom-4 right-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role="status"
            data-testid="toast"
            className={`pointer-events-auto rounded-md border bg-surface p-3 text-sm shadow-lg ${TONES[t.tone ?? "info"]}`}
          >
            <div className="flex items-start justify-between gap-2">
              <p className="font-semibold">{t.title}</p>
              <button
                type="button"
                onClick={() => dismiss(t.id)}
                aria-label="Dismiss notice"
                className="text-ink-muted hover:text-ink"
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

const TONES = {
  info: "border-slate-300",
  success: "border-buy/40",
  warning: "border-warn/40",
  error: "border-sell/40",
};

/** `notify({ title, detail, tone })` shows a notice. */
export const useToast = (): Notify => useContext(ToastContext);
