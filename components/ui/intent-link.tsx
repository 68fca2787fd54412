"use client";

import Link from "next/link";
import { useState, type ComponentProps } from "react";

/**
 * The dashboard's link to one of its pages: Next's Link, prefetching its page only once the
 * person shows they may follow it (pointer over it, keyboard focus on it, a finger on it), as
 * Next's prefetching guide shows. Every page is dynamic (it reads the session), so Next's default,
 * prefetching each link in view, had the server render the header's pages, most of them twice, on
 * every page load: some 20 requests, a third of a load's CPU (test/bench/page-load.ts). The page a
 * person goes to is still on its way before the click lands.
 */
export function IntentLink({ onPointerEnter, onFocus, onTouchStart, ...props }: ComponentProps<typeof Link>) {
  const [intent, setIntent] = useState(false);
  return (
    <Link
      {...props}
      // null: Next's own prefetch from here on; false: none yet.
      prefetch={intent ? null : false}
      onPointerEnter={(event) => {
        setIntent(true);
        onPointerEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
    />
  );
}
