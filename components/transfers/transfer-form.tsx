"use client";

/** Placeholder: being written. */
export function TransferForm() {
  return <div data-placeholder="TransferForm" />;
}
