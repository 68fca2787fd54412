import { describe, expect, it } from "vitest";
import type { Live } from "@/lib/server/live/hub";
import { requireKnownProfiles } from "@/lib/server/live/profiles";
import { eventStream, MAX_STREAMS_PER_PERSON } from "@/lib/server/live/stream";
import { createMetrics } from "@/lib/server/ops/metrics";
import type { UpstreamRequest } from "@/lib/server/upstream/client";
import { ProblemError } from "@/lib/spec";

const metrics = createMetrics();
const openStreams = async () => (await metrics.eventStreams.get()).values[0]?.value ?? 0;
const viewer = { role: "viewer" as const, person: "viewer@example.com" };
const nothing = { profiles: [], markets: [] };

/** A hub that counts open streams per person, as the real one does. */
function countingLive() {
  const open = new Map<string, number>();
  const closed: string[] = [];
  const live = {
    open: ({ person }: { person: string }) => {
      open.set(person, (open.get(person) ?? 0) + 1);
      return {
        close: () => {
          open.set(person, open.get(person)! - 1);
          closed.push(person);
        },
      };
    },
    streamsOf: (person: string) => open.get(person) ?? 0,
  } as unknown as Live;
  return { live, closed };
}

async function readAll(res: Response): Promise<string> {
  return new Response(res.body).text();
}

describe("an event stream", () => {
  it("counts itself open in the metrics until it ends, once however it ends", async () => {
    const { live, closed } = countingLive();
    const before = await openStreams();
    const leave = new AbortController();
    const res = eventStream(live, metrics, viewer, nothing, leave.signal);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("retry: 2000");
    expect(await openStreams()).toBe(before + 1);
    leave.abort();
    await reader.cancel();
    expect(await openStreams()).toBe(before);
    expect(closed).toEqual([viewer.person]);
  });

  it("ends when its session does, and stops watching the session when the browser leaves", async () => {
    const { live, closed } = countingLive();
    let end: () => void = () => {};
    let watching = 0;
    const until = (onEnd: () => void) => {
      end = onEnd;
      watching++;
      return () => void watching--;
    };
    const res = eventStream(live, metrics, viewer, nothing, new AbortController().signal, until);
    expect(watching).toBe(1);
    end();
    // The body ends: the browser's EventSource sees the stream close.
    expect(await readAll(res)).toContain("retry:");
    expect(closed).toEqual([viewer.person]);
    expect(watching).toBe(0);
  });

  it(`opens at most ${MAX_STREAMS_PER_PERSON} per person: the next is a 429 problem; others are not counted`, async () => {
    const { live } = countingLive();
    const leave = new AbortController();
    const opened = Array.from({ length: MAX_STREAMS_PER_PERSON }, () =>
      eventStream(live, metrics, viewer, nothing, leave.signal),
    );
    expect(opened.every((r) => r.status === 200)).toBe(true);
    const refused = eventStream(live, metrics, viewer, nothing, leave.signal);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({ status: 429, meta: { limit: MAX_STREAMS_PER_PERSON, open: 10 } });
    const other = eventStream(live, metrics, { role: "viewer", person: "ops@example.com" }, nothing, leave.signal);
    expect(other.status).toBe(200);
    leave.abort();
  });
});

describe("profiles a stream may name", () => {
  const service = (pages: string[][]) => {
    const calls: UpstreamRequest[] = [];
    const upstream = {
      async request(request: UpstreamRequest) {
        calls.push(request);
        const at = Number(request.query?.page_cursor ?? 0);
        const last = at === pages.length - 1;
        const body = { items: pages[at]!.map((id) => ({ id })), ...(last ? {} : { next_page_cursor: String(at + 1) }) };
        return { status: 200, body, headers: new Headers() };
      },
    };
    return { upstream, calls };
  };

  it("are the service's, every page of them; others are a 400 naming profiles and the unknown ids", async () => {
    const { upstream, calls } = service([["p1", "p2"], ["p3"]]);
    await expect(requireKnownProfiles(upstream, ["p1", "p3"])).resolves.toBeUndefined();
    const refusal = await requireKnownProfiles(upstream, ["p2", "made-up"]).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ProblemError);
    expect((refusal as ProblemError).problem).toMatchObject({
      status: 400,
      detail: expect.stringContaining("made-up"),
      meta: { errors: [{ field: "profiles" }] },
    });
    // Read once for both streams (kept for 30 s), both pages.
    expect(calls).toHaveLength(2);
  });

  it("need no call to the service when there are none", async () => {
    const { upstream, calls } = service([["p1"]]);
    await requireKnownProfiles(upstream, []);
    expect(calls).toHaveLength(0);
  });
});
