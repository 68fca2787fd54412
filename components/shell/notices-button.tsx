"use client";

import { useEffect, useRef, useState, type RefObject } from "react";
import { NOTICE_TONES, useNotices } from "@/components/ui/toasts";
import { unreadCount, type Notice } from "@/lib/client/notice-log";
import { Time } from "@/lib/client/time-zone";
import { useClosing } from "./use-closing";

const LIST_ID = "notices-list";

/**
 * "Notices" in the header, with the count of those unread: it opens this session's notices under
 * the header, newest first, each with its time and a Dismiss. Opening the list reads them;
 * Escape, the button again or a press outside closes it.
 */
export function NoticesButton() {
  const { notices, markRead } = useNotices();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLElement>(null);
  const unread = unreadCount(notices);
  // Read on opening; and one that arrives while the list is open is read there.
  useEffect(() => {
    if (open && unread > 0) markRead();
  }, [open, unread, markRead]);
  useClosing(open, () => setOpen(false), button, list);
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={LIST_ID}
        aria-label={unread > 0 ? `Notices, ${unread} unread` : "Notices"}
        onClick={() => setOpen((o) => !o)}
        className="relative inline-flex size-7 items-center justify-center rounded-md border border-slate-300 text-ink-muted hover:bg-surface-sunken hover:text-ink"
      >
        <BellIcon />
        {unread > 0 && (
          <span
            aria-hidden
            data-testid="notices-unread"
            className="absolute -right-1.5 -top-1.5 min-w-4 rounded-full bg-sell px-1 text-center text-[0.625rem] font-bold leading-4 text-white tabular-nums"
          >
            {unread}
          </span>
        )}
      </button>
      {open && <NoticesList ref={list} notices={notices} />}
    </>
  );
}

/** Under the header, at its right (the header is its containing block), over the page until closed. */
function NoticesList({ notices, ref }: { notices: Notice[]; ref: RefObject<HTMLElement | null> }) {
  const { dismiss, dismissAll } = useNotices();
  // The focus stays in the list when the notice it was on goes.
  const dismissOne = (id: string) => {
    dismiss(id);
    ref.current?.focus();
  };
  return (
    <section
      ref={ref}
      id={LIST_ID}
      tabIndex={-1}
      aria-label="Notices of this session"
      className="absolute right-2 top-full z-50 mt-1 max-h-[min(70vh,32rem)] w-[min(26rem,calc(100vw-1rem))] overflow-y-auto rounded-md border border-slate-300 bg-surface p-3 text-sm shadow-lg md:right-4"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">Notices</h2>
        {notices.length > 0 && (
          <button
            type="button"
            onClick={dismissAll}
            className="rounded px-2 py-1 text-xs text-ink-muted hover:bg-surface-sunken hover:text-ink"
          >
            Dismiss all
          </button>
        )}
      </div>
      {notices.length === 0 ? (
        <p className="mt-2 text-ink-muted">No notices in this session.</p>
      ) : (
        <ol className="mt-1">
          {notices.map((n) => (
            <li
              key={n.id}
              className={`mt-2 flex items-start gap-2 rounded-md border-l-4 bg-surface-sunken/40 p-2 ${NOTICE_TONES[n.tone ?? "info"]}`}
            >
              <div className="min-w-0 flex-1">
                <p className="font-semibold leading-snug">{n.title}</p>
                {n.detail && <p className="mt-0.5 break-words text-ink-muted">{n.detail}</p>}
                <p className="mt-0.5 text-xs text-ink-muted">
                  <Time iso={new Date(n.at).toISOString()} />
                </p>
              </div>
              <button
                type="button"
                onClick={() => dismissOne(n.id)}
                aria-label={`Dismiss notice: ${n.title}`}
                className="-m-1 inline-flex size-8 shrink-0 items-center justify-center rounded text-ink-muted hover:bg-surface-sunken hover:text-ink max-sm:size-11 pointer-coarse:size-11"
              >
                ×
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function BellIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="currentColor" className="size-4">
      <path d="M10 2a5 5 0 0 0-5 5v2.59l-1.7 2.55A1.2 1.2 0 0 0 4.3 14h11.4a1.2 1.2 0 0 0 1-1.86L15 9.59V7a5 5 0 0 0-5-5Zm-2.45 13a2.5 2.5 0 0 0 4.9 0h-4.9Z" />
    </svg>
  );
}
