import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { withCaller } from "@/lib/server/auth/caller";
import { authOptions } from "@/lib/server/auth/options";
import { clientIp } from "@/lib/server/http/origin";

const nextAuth = NextAuth(authOptions) as (req: NextRequest, ctx: unknown) => Promise<Response>;

/** next-auth's routes, with the caller's address at hand for the audit trail. */
const handler = (req: NextRequest, ctx: unknown) => withCaller(clientIp(req), () => nextAuth(req, ctx));

export { handler as GET, handler as POST };
