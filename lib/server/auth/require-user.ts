import "server-only";
import { redirect } from "next/navigation";
import { currentUser, type SignedInUser } from "./session";

/**
 * The signed-in user of a page, or a redirect to sign-in. Every page calls it itself:
 * Next renders a page alongside its layout, so the layout's check does not guard it.
 */
export async function requireUser(): Promise<SignedInUser> {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return user;
}
