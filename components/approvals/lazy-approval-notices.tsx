"use client";

import dynamic from "next/dynamic";

/**
 * The notices of one's own requests render nothing and are needed only after the page is up:
 * their code loads after the first script, outside every page's first-load budget.
 */
export const ApprovalNotices = dynamic(() => import("./approval-notices").then((m) => m.ApprovalNotices), {
  ssr: false,
});
