import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { levelOf, loggerOptions, REDACTED, scrub } from "@/lib/server/ops/log";
import { inRequest, newRequestContext } from "@/lib/server/http/request-context";

/** A logger as the server makes it, writing into an array instead of stdout. */
function capture(level: Parameters<typeof loggerOptions>[0] = "debug") {
  const lines: string[] = [];
  const logger = pino(loggerOptions(level), { write: (line: string) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("log lines", () => {
  it("are JSON with an ISO time and the level's name", () => {
    const { logger, parsed } = capture();
    logger.info({ route: "/orders" }, "hello");
    expect(parsed()[0]).toMatchObject({ level: "info", msg: "hello", route: "/orders" });
    expect(new Date(parsed()[0]!.time).toISOString()).toBe(parsed()[0]!.time);
  });

  it("carry the request id of the request they were made for", () => {
    const { logger, parsed } = capture();
    inRequest(newRequestContext("req-42"), () => logger.warn("inside"));
    logger.warn("outside");
    expect(parsed().map((l) => l.request_id)).toEqual(["req-42", undefined]);
  });

  it("redact cookies, Authorization, passwords, client secrets and tokens wherever they sit", () => {
    const secrets = {
      cookie: "next-auth.session-token=SESSION-COOKIE",
      authorization: "Bearer METRICS-TOKEN-VALUE",
      password: "PASSWORD-VALUE",
      client_secret: "CLIENT-SECRET-VALUE",
      access_token: "ACCESS-TOKEN-VALUE",
    };
    const { logger, lines } = capture();
    logger.info({
      ...secrets,
      headers: { cookie: secrets.cookie, authorization: secrets.authorization, "set-cookie": "SET-COOKIE-VALUE" },
      body: { password: secrets.password, client_secret: secrets.client_secret, clientSecret: "CAMEL-SECRET" },
      upstream: { response: { body: { access_token: secrets.access_token, token: "PLAIN-TOKEN" } } },
      db: { connectionString: "postgres://u:DB-PASSWORD@h/db" },
    });
    const text = lines.join("");
    for (const value of [
      ...Object.values(secrets),
      "SET-COOKIE-VALUE",
      "CAMEL-SECRET",
      "PLAIN-TOKEN",
      "DB-PASSWORD",
      "SESSION-COOKIE",
      "METRICS-TOKEN-VALUE",
    ]) {
      expect(text).not.toContain(value);
    }
    expect(text).toContain(REDACTED);
  });

  it("never write a personal API token's secret: a request line's headers at debug, or a field named like it", () => {
    const secret = `dsk_${"A".repeat(43)}`;
    const { logger, lines } = capture("debug");
    // As lib/server/http/incoming.ts logs a request at debug: its headers, whatever their case.
    logger.info({ method: "POST", path: "/api/v2/transfer/internal", headers: { authorization: `Bearer ${secret}` } });
    logger.info({ request: { headers: { authorization: `bearer ${secret}`, "proxy-authorization": secret } } });
    logger.info({ token: secret, secret });
    expect(lines.join("")).not.toContain(secret.slice(4));
    expect(lines).toHaveLength(3);
  });

  it("log an error with its stack, the configured secrets cut out of message and stack", () => {
    vi.stubEnv("SERVICE_CLIENT_SECRET", "the-client-secret-value");
    vi.stubEnv("DATABASE_URL", "postgres://app:db-pass-word@db.internal/dashboard");
    const { logger, parsed } = capture();
    const error = new Error("token endpoint said the-client-secret-value is wrong; db-pass-word too");
    logger.error({ err: error }, "failed");
    const line = parsed()[0]!;
    expect(line.err.type).toBe("Error");
    expect(line.err.stack).toContain("log.test.ts");
    expect(JSON.stringify(line)).not.toMatch(/the-client-secret-value|db-pass-word/);
    expect(line.err.message).toBe(`token endpoint said ${REDACTED} is wrong; ${REDACTED} too`);
  });

  it("write nothing below LOG_LEVEL", () => {
    const { logger, lines } = capture("warn");
    logger.info("quiet");
    logger.warn("loud");
    expect(lines).toHaveLength(1);
  });

  it("default to info for an unknown or missing LOG_LEVEL (the configuration check refuses a bad one)", () => {
    expect(levelOf(undefined)).toBe("info");
    expect(levelOf("loud")).toBe("info");
    expect(levelOf("debug")).toBe("debug");
  });
});

describe("scrub", () => {
  it("leaves short values alone: a demo password like 'demo' is an ordinary word", () => {
    expect(
      scrub(
        "demo data for the demo",
        ["demo"].filter((s) => s.length >= 8),
      ),
    ).toBe("demo data for the demo");
    expect(scrub("secret=abcdefgh12", ["abcdefgh12"])).toBe(`secret=${REDACTED}`);
  });
});
