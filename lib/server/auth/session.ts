import "server-only";
import { getServerSession } from "next-auth";
import { isRole, type Role } from "@/lib/roles";
import { authOptions } from "./options";

export interface SignedInUser {
  email: string;
  name: string;
  role: Role;
}

/** The signed-in staff member, or null. */
export async function currentUser(): Promise<SignedInUser | null> {
  const session = await getServerSession(authOptions);
  const u = session?.user;
  if (!u?.email || !isRole(u.role)) return null;
  return { email: u.email, name: u.name ?? u.email, role: u.role };
}
