import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ParentOrderView } from "@/components/parent-orders/parent-order-view";
import { can } from "@/lib/shared/roles";
import { requireUser } from "@/lib/server/auth/require-user";
import { getParentOrder } from "@/lib/server/parent-orders/actions";
import { runtime } from "@/lib/server/runtime";
import { ProblemError } from "@/lib/spec";

export const metadata: Metadata = { title: "Parent order" };

/** A parent order's id as the back end makes them (a time-ordered UUID). */
const PARENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A TWAP parent order (issue 29), linked from its row in the orders table and from the ticket's
 * card: every role reads it; the trader who asked for it, or an admin, pauses, resumes and
 * cancels it. Drawn from the parent as it stands when the page is asked for, then kept current
 * by the stream.
 */
export default async function ParentOrderPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const { id } = await params;
  if (!PARENT_ID.test(id)) notFound();
  const parent = await getParentOrder(await runtime(), id).catch((error: unknown) => {
    if (error instanceof ProblemError && error.problem.status === 404) return null;
    throw error;
  });
  if (!parent) notFound();
  // As the back end allows it (lib/server/parent-orders/actions.ts): the requester, or an admin.
  const canAct = can(user.role, "orders:create") && (user.role === "admin" || parent.requested_by === user.email);
  return (
    <>
      <h1 className="sr-only">Parent order {parent.id.slice(0, 8)}</h1>
      <ParentOrderView initial={parent} canAct={canAct} />
    </>
  );
}
