import type { Metadata } from "next";
import { ApprovalsInbox } from "@/components/approvals/approvals-inbox";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Approvals" };

/** Four eyes: requests held for approval, decided here by someone other than their requester. */
export default async function ApprovalsPage() {
  const user = await requireUser();
  return (
    <div>
      <h1 className="sr-only">Approvals</h1>
      <ApprovalsInbox email={user.email} role={user.role} />
    </div>
  );
}
