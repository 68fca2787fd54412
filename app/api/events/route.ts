import { methodNotAllowed, parseOr400, queryOf } from "@/lib/server/http/toolkit";
import { requireKnownProfiles } from "@/lib/server/live/profiles";
import { eventStream } from "@/lib/server/live/stream";
import { withRole } from "@/lib/server/http/route";
import { liveWantsQuerySchema } from "@/lib/server/http/route-schemas";

export const dynamic = "force-dynamic";

/**
 * The live stream (text/event-stream) for any signed-in user: orders, transfers and approvals
 * as they are created and change, balances of `profiles` (profiles the service has) and tickers
 * of `markets`. It ends with its session (sign-out, revocation, idle timeout, 8 h), and never
 * renews the idle timeout itself; at most 10 are open per person.
 */
export const GET = withRole(
  "read",
  async ({ request, user, sessionId, runtime }) => {
    const wants = parseOr400(liveWantsQuerySchema, queryOf(new URL(request.url), [], ["profiles", "markets"]));
    await requireKnownProfiles(runtime.upstream, wants.profiles);
    const viewer = { role: user.role, person: user.email };
    // It ends when the browser leaves, or when this instance shuts down (with a hint to reconnect).
    const ends = AbortSignal.any([request.signal, runtime.lifecycle.signal]);
    return eventStream(runtime.live, runtime.metrics, viewer, wants, ends, (end) =>
      // byToken: false below: a session's request, always.
      runtime.sessions.watch(sessionId!, end),
    );
  },
  // It ends with its session; a token has none (scripts poll the lists).
  { renews: false, byToken: false },
);

const notAllowed = () => methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
