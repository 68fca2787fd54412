import type { Metadata } from "next";
import { ActivityTable } from "@/components/activity/activity-table";

export const metadata: Metadata = { title: "Activity" };

export default function ActivityPage() {
  return (
    <div>
      <h1 className="sr-only">Activity</h1>
      <ActivityTable />
    </div>
  );
}
