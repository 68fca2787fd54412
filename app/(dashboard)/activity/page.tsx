import type { Metadata } from "next";
import { ActivityTable } from "@/components/activity/activity-table";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage() {
  await requireUser();
  return (
    <div>
      <h1 className="sr-only">Activity</h1>
      <ActivityTable />
    </div>
  );
}
