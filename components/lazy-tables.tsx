"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "./ui/skeleton";

/**
 * The tables load after the page's first script: they render on the server as usual, and
 * their JavaScript (react-table and friends) arrives as a separate chunk, keeping the
 * order ticket's first load within budget. The placeholder keeps the table's height.
 */
const placeholder = () => <Skeleton className="h-[28rem]" />;

export const OrdersTable = dynamic(() => import("./orders/orders-table").then((m) => m.OrdersTable), {
  loading: placeholder,
});
export const TransfersTable = dynamic(() => import("./transfers/transfers-table").then((m) => m.TransfersTable), {
  loading: placeholder,
});
export const AuditTable = dynamic(() => import("./audit/audit-table").then((m) => m.AuditTable), {
  loading: placeholder,
});
