"use client";

import { useEffect, useRef, type KeyboardEvent } from "react";
import { SHORTCUTS } from "@/lib/client/shortcuts";
import { Button } from "../ui/button";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The list of shortcuts in a modal dialog: the page behind is inert, Tab stays inside, Esc
 * or Close closes it, and focus goes back to where it was.
 */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => opener?.focus();
  }, []);

  /** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
  function keepTabInside(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab") return;
    const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const [first, last] = [controls[0], controls[controls.length - 1]];
    if (!first || !last) return;
    const leaving = event.shiftKey ? document.activeElement === first : document.activeElement === last;
    if (!leaving) return;
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }

  return (
    <dialog
      ref={ref}
      aria-modal="true"
      aria-labelledby="shortcuts-title"
      onClose={onClose}
      onKeyDown={keepTabInside}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-surface p-5 text-ink shadow-xl backdrop:bg-black/50"
    >
      <h2 id="shortcuts-title" className="text-base font-semibold">
        Keyboard shortcuts
      </h2>
      <p className="mt-1 text-xs text-ink-muted">Not while typing in a field.</p>
      <dl className="mt-4 space-y-2 text-sm">
        {SHORTCUTS.map(({ keys, action }) => (
          <div key={action} className="flex items-center justify-between gap-4">
            <dt>
              {keys.map((k) => (
                <kbd
                  key={k}
                  className="rounded border border-slate-300 bg-surface-raised px-1.5 py-0.5 font-mono text-xs"
                >
                  {k}
                </kbd>
              ))}
            </dt>
            <dd className="text-right text-ink-muted">{action}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-5 flex justify-end">
        <Button variant="secondary" autoFocus onClick={() => ref.current?.close()}>
          Close
        </Button>
      </div>
    </dialog>
  );
}
