"use client";

import { useApprovalNotices } from "./use-approval-notices";

/** Mounted once in the signed-in shell: the notices about the person's own requests. */
export function ApprovalNotices({ email }: { email: string }) {
  useApprovalNotices(email);
  return null;
}
