import { describe, expect, it } from "vitest";
import type { Live } from "@/lib/server/live/hub";
import { eventStream } from "@/lib/server/live/stream";
import { createMetrics } from "@/lib/server/metrics";

const metrics = createMetrics();
const openStreams = async () => (await metrics.eventStreams.get()).values[0]?.value ?? 0;

describe("an event stream", () => {
  it("counts itself open in the metrics until it ends, once however it ends", async () => {
    const closed: string[] = [];
    const live = {
      open: () => ({ close: () => void closed.push("subscription") }),
    } as unknown as Live;
    const before = await openStreams();
    const leave = new AbortController();
    const res = eventStream(live, metrics, "viewer", { profiles: [], markets: [] } as never, leave.signal);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("retry: 2000");
    expect(await openStreams()).toBe(before + 1);
    leave.abort();
    await reader.cancel();
    expect(await openStreams()).toBe(before);
    expect(closed).toEqual(["subscription"]);
  });
});
