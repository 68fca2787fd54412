"use client";

import dynamic from "next/dynamic";

/**
 * The order ticket is drawn on the server with the page, so its fields are on screen (and
 * reachable with Tab) at the first paint; its script (react-hook-form, the ticket's rules and
 * parts) arrives as a chunk of its own, fetched alongside the page's first script rather than
 * inside it: the page's first-load budget (npm run bench:bundle).
 *
 * No placeholder of its own, on purpose: the server's HTML stands in until the script runs, and
 * a navigation to the page waits for the chunk rather than flash a placeholder. A Suspense
 * fallback here would also hold the ticket's hydration back by React's reveal throttle (about
 * 0.3 s more before the ticket answers, measured).
 */
export const OrderTicket = dynamic(() => import("./order-ticket").then((m) => m.OrderTicket));
