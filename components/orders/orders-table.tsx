"use client";

/** Placeholder: being written. */
export function OrdersTable({ canCancel }: { canCancel: boolean }) {
  return <div data-placeholder="OrdersTable" />;
}
