"use client";

/** Placeholder: being written. */
export function OrderTicket() {
  return <div data-placeholder="OrderTicket" />;
}
