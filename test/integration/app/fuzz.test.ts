import { beforeAll, describe, expect, it } from "vitest";
import { sharedDashboard, type SharedDashboard } from "../../support/dashboard";
import { fuzz, fuzzTokens, type FuzzedApp } from "../../support/fuzz";

/**
 * 2,000 hostile bodies (wrong types, huge strings, deep nesting, prototype keys, broken JSON,
 * wrong content types) across every POST route of the back end and of the sandbox: no answer
 * is a 5xx, every 4xx is a problem (the token endpoint's are RFC 6749 errors, as OAuth clients
 * need). The server's memory after 10,000 of them is a figure of test/bench/fuzz.ts.
 */

let d: SharedDashboard;
let app: FuzzedApp;
beforeAll(async () => {
  d = await sharedDashboard();
  app = { url: d.url, as: d.as, tokens: await fuzzTokens(d.sandbox) };
});

describe("fuzz: hostile bodies at every POST route", () => {
  it("2,000 requests: no 5xx, every 4xx a problem", async () => {
    const { failures, byStatus, seconds, routes } = await fuzz(app, 2_000);
    console.log(
      `fuzz: 2000 hostile requests over ${routes} POST routes in ${seconds.toFixed(1)} s; ` +
        `statuses ${JSON.stringify(Object.fromEntries([...byStatus].sort()))}`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
