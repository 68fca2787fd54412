import type { Metadata } from "next";
import { PolicyEditor } from "@/components/policies/policy-form";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { can } from "@/lib/shared/roles";
import { requireUser } from "@/lib/server/auth/require-user";

export const metadata: Metadata = { title: "Policies" };

/** The desk's controls, which an admin sets: what needs approval, the pre-trade limits, the price guard. */
export default async function PoliciesPage() {
  const user = await requireUser();
  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">Policies</h1>
      {can(user.role, "policies:edit") ? (
        <PolicyEditor />
      ) : (
        <ReadOnlyNote>The desk&apos;s policies are set by an admin.</ReadOnlyNote>
      )}
    </div>
  );
}
