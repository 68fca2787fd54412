import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../support/app-server";
import { eventually, startDashboard, type Dashboard } from "../../support/dashboard";
import { openStream } from "../../support/event-stream";

/**
 * Issue 16, finding 13: the idle timeout counts what the person does. An open tab polls in the
 * background and holds its live stream; neither keeps the session alive. Page loads and requests
 * the dashboard's own client marks as the person's (lib/client/api.ts) do. Thirty seconds idle
 * here: the end is checked at its deadline, and a busy session is renewed a tenth of that often.
 */

const IDLE_MS = 30_000;
let d: Dashboard;
beforeAll(async () => {
  // Its own server, not the shared one: SESSION_IDLE_MINUTES of 0.5.
  d = await startDashboard({ env: { SESSION_IDLE_MINUTES: "0.5" } });
});
afterAll(() => d?.dispose());

describe("the idle timeout", () => {
  it(
    "ends a session kept busy only by background polls and its stream; the stream closes with it",
    async () => {
      const before = performance.now();
      const [background, marked, pages] = await Promise.all([
        signIn({ url: d.url }, "viewer@example.com"),
        signIn({ url: d.url }, "ops@example.com"),
        signIn({ url: d.url }, "approver@example.com"),
      ]);
      const stream = await openStream(d.url, background.cookie());
      expect(stream.status).toBe(200);

      // Every 3 s: the open tab's poll, a request the client marked as the person's own, a page load.
      let endedAt = 0;
      await eventually(
        async () => {
          const [poll, own, page] = await Promise.all([
            background.call("GET", "/api/approvals"),
            marked.call("GET", "/api/approvals", undefined, { "X-Dashboard-Activity": "1" }),
            fetch(`${d.url}/orders`, { headers: { Cookie: pages.cookie() }, redirect: "manual" }),
          ]);
          expect(own.status).toBe(200);
          expect(page.status).toBe(200);
          if (poll.status === 401) return (endedAt = performance.now());
          expect(poll.status).toBe(200);
          return undefined;
        },
        // The polls notwithstanding, it ends: not before the idle time, and before the polls give up.
        IDLE_MS + 20_000,
        "the polled session to end",
        3_000,
      );
      expect(endedAt).toBeGreaterThanOrEqual(before + IDLE_MS);
      // Its stream ends with it, by the server's doing, not before the idle time.
      const streamEnded = await stream.ended;
      expect(stream.endedByServer()).toBe(true);
      expect(streamEnded).toBeGreaterThanOrEqual(before + IDLE_MS);
      // The other two, as idle as the clock but active as people, are still signed in.
      expect((await marked.call("GET", "/api/approvals")).status).toBe(200);
      expect((await fetch(`${d.url}/orders`, { headers: { Cookie: pages.cookie() }, redirect: "manual" })).status).toBe(
        200,
      );
    },
    IDLE_MS + 60_000,
  );
});
