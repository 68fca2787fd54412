"use client";

import dynamic from "next/dynamic";

const load = () => import("./review-panel");

/**
 * The review step loads when a form is first checked, not with the page: the order ticket's
 * first load stays within its budget. useCreateFlow starts the load as the check starts, so
 * the small chunk arrives while the rules (and zod) load.
 */
export const ReviewPanel = dynamic(() => load().then((m) => m.ReviewPanel));

/** A create held for four eyes, followed until it is decided; loads with the first answer that holds one. */
export const AwaitingApproval = dynamic(() => import("./awaiting-approval").then((m) => m.AwaitingApproval));
export const preloadReviewPanel = (): void => void load();
