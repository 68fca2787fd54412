import { methodNotAllowed } from "@/lib/server/http/toolkit";

// Liveness: answered while the process serves. No session, no database, no service: a
// dependency's outage must not get a healthy process restarted (readiness says that).
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
