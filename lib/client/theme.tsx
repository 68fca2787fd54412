"use client";

import { useEffect, useSyncExternalStore } from "react";
import { THEME_COOKIE, themeClass, type ThemeChoice } from "@/lib/shared/theme-choice";

/**
 * Light or dark: the system's setting unless the person chose one in this browser. The choice
 * is remembered in localStorage and mirrored in a cookie, so the server renders
 * <html class="light|dark"> (app/layout.tsx) and the first paint is already right, with no
 * inline script. app/globals.css does the rest: every colour is light-dark(light, dark).
 */
const STORAGE_KEY = "dashboard.theme";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  const media = matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", listener);
  return () => {
    listeners.delete(listener);
    media.removeEventListener("change", listener);
  };
}

const readChoice = (): ThemeChoice => themeClass(localStorage.getItem(STORAGE_KEY)) ?? "system";

function apply(choice: ThemeChoice) {
  const html = document.documentElement;
  html.classList.toggle("light", choice === "light");
  html.classList.toggle("dark", choice === "dark");
  document.cookie = `${THEME_COOKIE}=${choice}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
}

export function setThemeChoice(choice: ThemeChoice) {
  localStorage.setItem(STORAGE_KEY, choice);
  apply(choice);
  for (const listener of listeners) listener();
}

/** The person's choice; on the server and while hydrating, the one its cookie named. */
const useThemeChoice = (cookieChoice: ThemeChoice): ThemeChoice =>
  useSyncExternalStore(subscribe, readChoice, () => cookieChoice);

/** True when the page is dark now, by choice or by the system (for what CSS cannot colour, like a canvas). */
export function useDarkTheme(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => {
      const choice = readChoice();
      return choice === "dark" || (choice === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
    },
    () => false,
  );
}

const CHOICE_LABELS: Record<ThemeChoice, string> = { system: "System", light: "Light", dark: "Dark" };

/** System, light or dark, for the header; `cookieChoice` is what the server read from the cookie. */
export function ThemeToggle({ cookieChoice }: { cookieChoice: ThemeChoice }) {
  const choice = useThemeChoice(cookieChoice);
  // The stored choice wins if it and the cookie differ (a cleared cookie). Read here, not from
  // `choice`, which is the cookie's while hydrating.
  useEffect(() => apply(readChoice()), []);
  return (
    <div role="group" aria-label="Theme" className="flex overflow-hidden rounded-md border border-slate-300 text-xs">
      {(Object.keys(CHOICE_LABELS) as ThemeChoice[]).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={choice === option}
          onClick={() => setThemeChoice(option)}
          className={`px-2 py-1 ${choice === option ? "bg-brand text-white" : "bg-surface text-ink-muted hover:bg-slate-100"}`}
        >
          {CHOICE_LABELS[option]}
        </button>
      ))}
    </div>
  );
}
