import { describe, expect, it } from "vitest";
import { inProcessFetch } from "@/lib/server/upstream/in-process";

describe("inProcessFetch", () => {
  it("hands the service a Request and returns its Response, body and headers intact", async () => {
    const seen: Request[] = [];
    const fetch = inProcessFetch(async (request) => {
      seen.push(request);
      return Response.json({ echoed: await request.json() }, { status: 201 });
    });
    const res = await fetch("http://127.0.0.1:3000/sandbox/v2/x", {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({ a: "1.10" }),
      signal: AbortSignal.timeout(1000),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ echoed: { a: "1.10" } });
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer t");
    expect(seen[0]!.method).toBe("POST");
  });

  it("rejects with the signal's reason when the time limit passes first, as fetch does", async () => {
    const fetch = inProcessFetch(() => new Promise<Response>(() => {}));
    const error = await fetch("http://127.0.0.1/x", { signal: AbortSignal.timeout(20) }).catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    const aborted = AbortSignal.abort(new Error("gone"));
    await expect(fetch("http://127.0.0.1/x", { signal: aborted })).rejects.toThrow("gone");
  });
});
