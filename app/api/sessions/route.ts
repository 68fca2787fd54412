import { methodNotAllowed } from "@/lib/server/http/toolkit";
import { withRole } from "@/lib/server/http/route";

/** Live sessions (admin): who is signed in, from where, since when, last seen when. */
export const GET = withRole("sessions:manage", async ({ runtime }) =>
  Response.json({
    items: (await runtime.sessions.active()).map((s) => ({
      id: s.id,
      user_email: s.user_email,
      user_role: s.user_role,
      provider: s.provider,
      ip: s.ip,
      started_at: s.started_at,
      last_seen_at: s.last_seen_at,
      expires_at: s.expires_at,
    })),
  }),
);

export const POST = () => methodNotAllowed("GET");
