"use client";

import { useRef, useState } from "react";
import { ACCOUNT_PAGES } from "./account-pages";
import { NavLink } from "./nav-link";
import type { NavPage } from "./nav-pages";
import { useClosing } from "./use-closing";

const MENU_ID = "page-menu";

/**
 * A phone's navigation: one Menu button in the header (the three bars, so the row beside it is
 * left to the toasts), which opens every page the person may use under the header, two to a
 * row, each a finger's height, the current one marked. The count of approvals waiting on the
 * person rides on the button, as the unread count on Notices. Escape, the button again, a press
 * outside or a page chosen closes it. The person's own pages (API tokens, Notifications, API docs), beside their name from
 * `md` up, close the list, apart from the desk's pages.
 */
export function PageMenu({ pages, path, waiting }: { pages: NavPage[]; path: string; waiting: number }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  useClosing(open, () => setOpen(false), button, list);
  return (
    <div className="md:hidden">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={MENU_ID}
        aria-label={waiting > 0 ? `Menu, ${waiting} waiting` : "Menu"}
        onClick={() => setOpen((o) => !o)}
        className="relative inline-flex h-8 w-9 items-center justify-center rounded-md border border-slate-300 text-ink hover:bg-surface-sunken"
      >
        <MenuIcon />
        {waiting > 0 && (
          <span
            aria-hidden
            data-testid="menu-approvals-count"
            className="absolute -right-1.5 -top-1.5 min-w-4 rounded-full bg-warn-soft px-1 text-center text-[0.625rem] font-bold leading-4 text-warn tabular-nums ring-1 ring-warn/40"
          >
            {waiting}
          </span>
        )}
      </button>
      {open && (
        // The header is its containing block: the list spans the header's width, under it.
        <ul
          ref={list}
          id={MENU_ID}
          className="absolute inset-x-2 top-full z-50 mt-1 grid grid-cols-2 gap-1 rounded-md border border-slate-300 bg-surface p-2 shadow-lg"
        >
          {pages.map((page) => (
            <li key={page.href}>
              <NavLink
                page={page}
                path={path}
                waiting={waiting}
                className="flex min-h-11 px-3"
                onClick={() => setOpen(false)}
              />
            </li>
          ))}
          {ACCOUNT_PAGES.map((page, i) => (
            // Their own rows under a rule, two to a row as the desk's pages.
            <li
              key={page.href}
              className={
                i === 0
                  ? "col-start-1 mt-1 border-t border-slate-200 pt-2"
                  : i === 1
                    ? "mt-1 border-t border-slate-200 pt-2"
                    : ""
              }
            >
              <NavLink
                page={page}
                path={path}
                waiting={0}
                className="flex min-h-11 px-3"
                onClick={() => setOpen(false)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MenuIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="currentColor" className="size-4">
      <path d="M3 5h14v1.5H3zM3 9.25h14v1.5H3zM3 13.5h14V15H3z" />
    </svg>
  );
}
