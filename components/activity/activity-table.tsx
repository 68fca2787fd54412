"use client";

/** Placeholder: being written. */
export function ActivityTable() {
  return <div data-placeholder="ActivityTable" />;
}
