"use client";

import { useApprovalNotices } from "./use-approval-notices";

/**
 * Mounted once in the signed-in shell: the notices about the person's own requests. It draws
 * nothing; `data-watching` says when a decision from then on is news (for tests to wait on).
 */
export function ApprovalNotices({ email }: { email: string }) {
  const watching = useApprovalNotices(email);
  return <span hidden data-testid="approval-notices" data-watching={watching} />;
}
