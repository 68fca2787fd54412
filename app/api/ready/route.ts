import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { readinessOf } from "@/lib/server/ops/readiness";
import { runtime } from "@/lib/server/runtime";

// Readiness: 200 while this instance should get traffic; 503 naming each failing check
// (lib/server/ops/readiness.ts). No session.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { ready, checks } = await readinessOf(runtime);
  return Response.json(ready ? { status: "ready" } : { status: "not ready", checks }, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
