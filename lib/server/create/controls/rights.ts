import "server-only";
import { can, rolesThatCan, type Role } from "@/lib/shared/roles";
import { problem, type Problem } from "@/lib/spec";
import { recipientElsewhereOf, type Create } from "../create";

/**
 * Whether `role` may make this create: the right of its kind, and for an order that settles
 * into another profile (its recipient_profile_id), the right to transfer as well, since it moves
 * money between profiles as a transfer does. Undefined when it may; else the 403 to answer.
 * The route has checked the kind's right already (withRole); the verdict checks both again with
 * the role the person holds now, at every create and at an approver's send.
 */
export function rightsRefusal(create: Create, role: Role): Problem | undefined {
  const action = create.kind === "order" ? "orders:create" : "transfers:create";
  if (!can(role, action)) {
    const detail = `The requester's role is now ${role}, which may not do this (${action}).`;
    return problem(403, "Forbidden", detail, { role, action });
  }
  if (!recipientElsewhereOf(create) || can(role, "transfers:create")) return undefined;
  const field = "recipient_profile_id";
  const message =
    `An order that settles into another profile moves money between profiles, as a transfer does, ` +
    `and the ${role} role may not make transfers (only ${rolesThatCan("transfers:create").join(" and ")} may). ` +
    `Leave it empty, or name the order's own profile`;
  return problem(403, "Forbidden", `${field}: ${message}.`, {
    role,
    action: "transfers:create",
    errors: [{ field, message }],
  });
}
