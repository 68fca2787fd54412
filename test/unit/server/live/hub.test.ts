import { describe, expect, it } from "vitest";
import { createLive, type Numbered } from "@/lib/server/live/hub";
import type { UpstreamRequest } from "@/lib/server/upstream/client";

describe("an instance's live hub, resigning at shutdown", () => {
  it("stops watching the service and never leads again, while events still reach its streams", async () => {
    const reads: string[] = [];
    const upstream = {
      async request(r: UpstreamRequest) {
        reads.push(r.path);
        return { status: 200, body: { items: [] }, headers: new Headers() };
      },
    };
    const live = createLive({ upstream, watchEveryMs: 10 });
    const got: Numbered[] = [];
    const stream = live.open({ role: "admin", person: "admin@example.com" }, { profiles: [], markets: [] }, (e) =>
      got.push(e),
    );
    expect(live.leading).toBe(true);

    await live.resign();
    expect(live.leading).toBe(false);
    const readsAfter = reads.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(reads.length).toBe(readsAfter);

    live.publish({ name: "order", data: { id: "o-1" } } as never);
    await new Promise((r) => setTimeout(r, 0));
    expect(got.map((e) => e.event.data)).toEqual([{ id: "o-1" }]);
    stream.close();
    await live.stop();
    expect(live.leading).toBe(false);
  });

  it("does not start leading when it first starts after resigning", async () => {
    const upstream = { request: async () => ({ status: 200, body: { items: [] }, headers: new Headers() }) };
    const live = createLive({ upstream });
    await live.resign();
    live.open({ role: "admin", person: "admin@example.com" }, { profiles: [], markets: [] }, () => {});
    expect(live.leading).toBe(false);
    await live.stop();
  });
});
