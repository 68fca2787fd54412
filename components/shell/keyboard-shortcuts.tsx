"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { shellShortcut } from "@/lib/client/shortcuts";

/** The list's code arrives on first use: every page carries only this small key handler. */
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((m) => m.ShortcutsDialog), { ssr: false });

/**
 * The shell's shortcuts, on every signed-in page: "?" shows the list of shortcuts, "/" focuses
 * the page's table filter (an element marked `data-table-filter`). Also a "?" button, so the
 * list can be found without knowing the key.
 */
export function KeyboardShortcuts() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const shortcut = shellShortcut(event);
      if (shortcut === "help") {
        event.preventDefault();
        setOpen(true);
      } else if (shortcut === "filter") {
        const filter = document.querySelector<HTMLElement>("[data-table-filter]");
        if (!filter) return;
        event.preventDefault(); // not typed into the filter it focuses
        filter.focus();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label="Keyboard shortcuts"
        aria-keyshortcuts="?"
        className="size-7 rounded-md border border-slate-300 text-xs font-semibold text-ink-muted hover:bg-slate-100"
      >
        ?
      </button>
      {open && <ShortcutsDialog onClose={() => setOpen(false)} />}
    </>
  );
}
