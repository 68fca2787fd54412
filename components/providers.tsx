"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { TimeZoneProvider } from "@/lib/client/time-zone";
import { ToastProvider } from "./ui/toasts";

/** What every signed-in page shares: the query cache, the chosen time zone, the session's notices. */
export function Providers({ user, children }: { user: string; children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 1_000 } } }),
  );
  return (
    <QueryClientProvider client={client}>
      <TimeZoneProvider user={user}>
        <ToastProvider user={user}>{children}</ToastProvider>
      </TimeZoneProvider>
    </QueryClientProvider>
  );
}
