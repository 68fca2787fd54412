import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/app-server";
import { inProcessDashboard, type InProcessDashboard } from "../support/dashboard";
import { openStream } from "../support/event-stream";

/**
 * Issue 16, finding 13: the idle timeout counts what the person does. An open tab polls in the
 * background and holds its live stream; neither keeps the session alive. Requests the
 * dashboard's own client marks as the person's (lib/client/api.ts) and page loads do. The
 * runtime's clock is moved, ten minutes at a time, past the default thirty.
 */

const MINUTE = 60_000;
let d: InProcessDashboard;
beforeAll(async () => {
  d = await inProcessDashboard();
});
afterAll(() => d?.dispose());

describe("the idle timeout", () => {
  it("ends a session kept busy only by background polls and its stream; the stream closes with it", async () => {
    const [background, marked, navigating] = await Promise.all([
      signIn(d.target, "viewer@example.com"),
      signIn(d.target, "ops@example.com"),
      signIn(d.target, "approver@example.com"),
    ]);
    const stream = await openStream(d.target, background.cookie());
    expect(stream.status).toBe(200);

    // Every ten minutes: the open tab's poll, a request the client marked as the person's own, a page's navigation.
    const polls: number[] = [];
    for (let minutes = 10; minutes <= 30; minutes += 10) {
      d.app.clock.advance(10 * MINUTE);
      const [poll, own, page] = await Promise.all([
        background.call("GET", "/api/approvals"),
        marked.call("GET", "/api/approvals", undefined, { "X-Dashboard-Activity": "1" }),
        navigating.call("GET", "/api/approvals", undefined, { "Sec-Fetch-Mode": "navigate" }),
      ]);
      expect([own.status, page.status], `at ${minutes} minutes`).toEqual([200, 200]);
      polls.push(poll.status);
    }
    // Alive until its thirty minutes were up, however often it polled; then ended.
    expect(polls).toEqual([200, 200, 401]);
    // Its stream ends with it, by the server's doing.
    await stream.ended;
    expect(stream.endedByServer()).toBe(true);
    // The other two, as idle as the clock but active as people, are still signed in.
    d.app.clock.advance(10 * MINUTE);
    expect((await marked.call("GET", "/api/approvals")).status).toBe(200);
    expect((await navigating.call("GET", "/api/approvals")).status).toBe(200);
  });
});
