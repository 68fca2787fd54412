import { describe, expect, it, vi } from "vitest";
import { createSessionCache } from "@/lib/server/auth/session-cache";

const T0 = 1_800_000_000_000;
const claims = (expInSeconds: number) => ({ email: "a@example.com", exp: T0 / 1000 + expInSeconds });

describe("the session cache", () => {
  it("decodes each token once while it is fresh", async () => {
    const cached = createSessionCache<{ exp: number }>({ now: () => T0 });
    const decode = vi.fn(async () => claims(3600));
    await cached("t1", decode);
    expect(await cached("t1", decode)).toEqual(claims(3600));
    expect(decode).toHaveBeenCalledTimes(1);
    await cached("t2", decode);
    expect(decode).toHaveBeenCalledTimes(2);
  });

  it("keeps nothing past its time to live, past the token's expiry, or a refused token", async () => {
    let now = T0;
    const cached = createSessionCache<{ exp: number }>({ ttlMs: 60_000, now: () => now });
    const decode = vi.fn(async (token: string) => (token === "forged" ? null : claims(token === "short" ? 5 : 3600)));
    await cached("long", decode);
    await cached("short", decode);
    expect(await cached("forged", decode)).toBeNull();
    expect(await cached("forged", decode)).toBeNull();
    expect(decode).toHaveBeenCalledTimes(4);
    now += 6_000;
    await cached("short", decode); // past its expiry: decoded (and refused by next-auth) again
    await cached("long", decode); // still kept
    expect(decode).toHaveBeenCalledTimes(5);
    now += 60_000;
    await cached("long", decode); // past the minute
    expect(decode).toHaveBeenCalledTimes(6);
  });
});
