"use client";

/** Placeholder: being written. */
export function TransfersTable() {
  return <div data-placeholder="TransfersTable" />;
}
