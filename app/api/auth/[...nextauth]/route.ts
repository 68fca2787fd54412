import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { withCaller } from "@/lib/server/auth/caller";
import { authOptionsFor } from "@/lib/server/auth/options";
import { clientIp } from "@/lib/server/http/origin";
import { runtime } from "@/lib/server/runtime";

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's routes, with the runtime's options and the caller's address at hand for the audit trail. */
async function handler(req: NextRequest, ctx: Context): Promise<Response> {
  const options = authOptionsFor(await runtime());
  return withCaller(clientIp(req), () => NextAuth(req, ctx, options) as Promise<Response>);
}

export { handler as GET, handler as POST };
