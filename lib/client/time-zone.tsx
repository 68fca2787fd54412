"use client";

import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { formatTime, type TimeZoneChoice } from "../shared/format";

/**
 * The signed-in person's choice of UTC or local time, remembered in this browser per user.
 * Pages render in UTC on the server and switch once the browser has read the choice.
 */
interface TimeZoneState {
  zone: TimeZoneChoice;
  setZone(zone: TimeZoneChoice): void;
}

const TimeZoneContext = createContext<TimeZoneState>({ zone: "UTC", setZone: () => {} });

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function TimeZoneProvider({ user, children }: { user: string; children: ReactNode }) {
  const key = `dashboard.time-zone:${user}`;
  const zone = useSyncExternalStore<TimeZoneChoice>(
    subscribe,
    () => (localStorage.getItem(key) === "local" ? "local" : "UTC"),
    () => "UTC" as const,
  );
  const setZone = useCallback(
    (next: TimeZoneChoice) => {
      localStorage.setItem(key, next);
      for (const listener of listeners) listener();
    },
    [key],
  );
  const value = useMemo(() => ({ zone, setZone }), [zone, setZone]);
  return <TimeZoneContext.Provider value={value}>{children}</TimeZoneContext.Provider>;
}

export const useTimeZone = (): TimeZoneState => useContext(TimeZoneContext);

/** A time in the person's chosen zone, with the exact instant in `dateTime`. */
export function Time({ iso }: { iso: string | number | undefined }) {
  const { zone } = useTimeZone();
  if (iso === undefined || iso === "") return <span>—</span>;
  const instant = new Date(iso);
  return (
    <time dateTime={Number.isNaN(instant.getTime()) ? undefined : instant.toISOString()} className="whitespace-nowrap">
      {formatTime(iso, zone)}
    </time>
  );
}

/** UTC or local, for the header. */
export function TimeZoneToggle() {
  const { zone, setZone } = useTimeZone();
  return (
    <div
      role="group"
      aria-label="Time zone"
      className="flex overflow-hidden rounded-md border border-slate-300 text-xs"
    >
      {(["UTC", "local"] as const).map((choice) => (
        <button
          key={choice}
          type="button"
          aria-pressed={zone === choice}
          onClick={() => setZone(choice)}
          className={`px-2 py-1 ${zone === choice ? "bg-brand text-white" : "bg-surface text-ink-muted hover:bg-slate-100"}`}
        >
          {choice === "UTC" ? "UTC" : "Local"}
        </button>
      ))}
    </div>
  );
}
