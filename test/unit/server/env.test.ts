import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/server/env-schema";
import { penaltyMsFromEnv } from "@/lib/server/upstream/budget-rates";
import { SCOPES } from "@/lib/spec";

describe("configuration", () => {
  it("needs no variable: a demo talks to the embedded sandbox", () => {
    const env = parseEnv({});
    expect(env.SANDBOX).toBe("on");
    expect(env.service).toEqual({
      baseUrl: "http://127.0.0.1:3000/sandbox/v2",
      authUrl: "http://127.0.0.1:3000/sandbox/oauth2/token",
      clientId: "dashboard",
      clientSecret: "sandbox-secret",
      isSandbox: true,
    });
    expect(env.DEMO_PASSWORD).toBe("demo");
  });

  it("honours PORT for the embedded sandbox's address", () => {
    expect(parseEnv({ PORT: "4100" }).service.baseUrl).toBe("http://127.0.0.1:4100/sandbox/v2");
  });

  it("points at a real deployment with the four service variables, the audit key and the public URL", () => {
    const env = parseEnv({
      SERVICE_BASE_URL: "https://api.example.test/v2/",
      SERVICE_AUTH_URL: "https://oauth.example.test/oauth2/token",
      SERVICE_CLIENT_ID: "id",
      SERVICE_CLIENT_SECRET: "secret",
      AUDIT_SECRET: "an-audit-key-of-at-least-32-characters",
      NEXTAUTH_URL: "https://desk.example.test",
    });
    expect(env.service).toMatchObject({ baseUrl: "https://api.example.test/v2", isSandbox: false });
  });

  it("names each missing companion of SERVICE_BASE_URL", () => {
    expect(() => parseEnv({ SERVICE_BASE_URL: "https://api.example.test/v2" })).toThrow(
      /SERVICE_AUTH_URL: SERVICE_AUTH_URL is required[\s\S]*SERVICE_CLIENT_ID[\s\S]*SERVICE_CLIENT_SECRET/,
    );
  });

  // Issue 16: no audit key generated beside the trail it guards, no public URL taken from a request.
  it.each(["AUDIT_SECRET", "NEXTAUTH_URL"])("requires %s with a real service, naming it", (name) => {
    const real = {
      SERVICE_BASE_URL: "https://api.example.test/v2",
      SERVICE_AUTH_URL: "https://oauth.example.test/oauth2/token",
      SERVICE_CLIENT_ID: "id",
      SERVICE_CLIENT_SECRET: "secret",
      AUDIT_SECRET: "an-audit-key-of-at-least-32-characters",
      NEXTAUTH_URL: "https://desk.example.test",
    };
    expect(() => parseEnv({ ...real, [name]: undefined })).toThrow(
      new RegExp(`${name}: ${name} is required when SERVICE_BASE_URL is set`),
    );
    // The demo needs neither: the key is generated into DATA_DIR, the URL is the request's.
    expect(parseEnv({}).AUDIT_SECRET).toBeUndefined();
  });

  it("refuses SANDBOX=off with nothing else to talk to", () => {
    expect(() => parseEnv({ SANDBOX: "off" })).toThrow(/SERVICE_BASE_URL is required when SANDBOX=off/);
  });

  it.each([
    ["PORT", "http", /PORT must be a whole number/],
    ["PORT", "70000", /PORT must be at most 65535/],
    ["SANDBOX", "yes", /SANDBOX must be "on" or "off"/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL must be a postgres/],
    ["SERVICE_BASE_URL", "ftp://x", /SERVICE_BASE_URL must be an absolute http/],
    ["NEXTAUTH_SECRET", "short", /at least 32 characters/],
  ])("refuses %s=%s", (name, value, message) => {
    expect(() => parseEnv({ [name]: value })).toThrow(message);
  });

  it("wants all three OIDC variables or none", () => {
    expect(() => parseEnv({ OIDC_ISSUER: "https://id.example.test" })).toThrow(/OIDC_CLIENT_ID is required to sign in/);
  });

  it("asks for every scope the dashboard uses unless SERVICE_SCOPES names fewer", () => {
    expect(parseEnv({}).SERVICE_SCOPES).toEqual([...SCOPES]);
    // Space-separated, as OAuth writes them: any whitespace, repeats once.
    expect(
      parseEnv({ SERVICE_SCOPES: " exchange:read_order\tfunding:read_profile  exchange:read_order " }).SERVICE_SCOPES,
    ).toEqual(["exchange:read_order", "funding:read_profile"]);
  });

  it.each([
    ["exchange:read_orders", /SERVICE_SCOPES: "exchange:read_orders" is not a scope the dashboard uses/],
    ["exchange:read_order,funding:read_profile", /is not a scope the dashboard uses/],
    ["   ", /SERVICE_SCOPES must name at least one scope/],
  ])("refuses SERVICE_SCOPES=%j, naming the rule", (value, message) => {
    expect(() => parseEnv({ SERVICE_SCOPES: value })).toThrow(message);
  });

  it("holds calls after a 429 for SERVICE_RATE_PENALTY_SECONDS, else 300 s (the sandbox's penalty when it is the service)", () => {
    const real = {
      SERVICE_BASE_URL: "https://api.example.test/v2",
      SERVICE_AUTH_URL: "https://oauth.example.test/oauth2/token",
      SERVICE_CLIENT_ID: "id",
      SERVICE_CLIENT_SECRET: "secret",
      AUDIT_SECRET: "an-audit-key-of-at-least-32-characters",
      NEXTAUTH_URL: "https://dashboard.example.test",
    };
    expect(penaltyMsFromEnv(parseEnv(real))).toBe(300_000);
    expect(penaltyMsFromEnv(parseEnv({ ...real, SANDBOX_RATE_PENALTY_SECONDS: "5" }))).toBe(300_000);
    expect(penaltyMsFromEnv(parseEnv({ ...real, SERVICE_RATE_PENALTY_SECONDS: "42" }))).toBe(42_000);
    expect(penaltyMsFromEnv(parseEnv({}))).toBe(300_000);
    expect(penaltyMsFromEnv(parseEnv({ SANDBOX_RATE_PENALTY_SECONDS: "5" }))).toBe(5_000);
    expect(() => parseEnv({ SERVICE_RATE_PENALTY_SECONDS: "0" })).toThrow(
      /SERVICE_RATE_PENALTY_SECONDS must be greater than zero/,
    );
    expect(() => parseEnv({ SERVICE_RATE_PENALTY_SECONDS: "3601" })).toThrow(/at most 3600/);
  });

  it("treats an empty variable as unset", () => {
    expect(parseEnv({ SERVICE_BASE_URL: "", PORT: "" }).service.isSandbox).toBe(true);
  });
});

describe("production defaults", () => {
  const real = {
    SERVICE_BASE_URL: "https://api.example.test/v2",
    SERVICE_AUTH_URL: "https://oauth.example.test/oauth2/token",
    SERVICE_CLIENT_ID: "id",
    SERVICE_CLIENT_SECRET: "secret",
    AUDIT_SECRET: "an-audit-key-of-at-least-32-characters",
    NEXTAUTH_URL: "https://desk.example.test",
  };

  it("turns the embedded sandbox off once a real service is configured, unless SANDBOX=on", () => {
    expect(parseEnv(real).SANDBOX).toBe("off");
    expect(parseEnv({ ...real, SANDBOX: "on" }).SANDBOX).toBe("on");
  });

  it("refuses demo users with a weak password against a real service, naming the variable", () => {
    expect(() => parseEnv({ ...real, DEMO_USERS: "on" })).toThrow(/DEMO_PASSWORD must be at least 12 characters/);
    expect(() => parseEnv({ ...real, DEMO_USERS: "on", DEMO_PASSWORD: "short-pw" })).toThrow(/DEMO_PASSWORD/);
    expect(parseEnv({ ...real, DEMO_USERS: "on", DEMO_PASSWORD: "a-long-enough-one" }).DEMO_USERS).toBe("on");
    // Without DEMO_USERS=on a real service has no demo users, so the default password is harmless.
    expect(parseEnv(real).DEMO_PASSWORD).toBe("demo");
  });

  it("refuses plain http:// to a service anywhere but loopback", () => {
    expect(() => parseEnv({ ...real, SERVICE_BASE_URL: "http://api.example.test/v2" })).toThrow(
      /SERVICE_BASE_URL must use https:\/\//,
    );
    expect(parseEnv({ ...real, SERVICE_BASE_URL: "http://127.0.0.1:9000/v2" }).service.isSandbox).toBe(false);
    expect(() => parseEnv({ ...real, SERVICE_AUTH_URL: "http://oauth.example.test/token" })).toThrow(
      /SERVICE_AUTH_URL must use https:\/\//,
    );
  });

  it.each([
    ["LOG_LEVEL", "loud", /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
    ["SHUTDOWN_GRACE_SECONDS", "soon", /SHUTDOWN_GRACE_SECONDS must be a whole number/],
    ["SHUTDOWN_GRACE_SECONDS", "0", /SHUTDOWN_GRACE_SECONDS must be greater than zero/],
    ["SHUTDOWN_GRACE_SECONDS", "7200", /SHUTDOWN_GRACE_SECONDS may be at most 3600/],
    ["SANDBOX_TRANSFER_SETTLE_MS", "x", /SANDBOX_TRANSFER_SETTLE_MS must be a whole number/],
  ])("refuses %s=%s", (name, value, message) => {
    expect(() => parseEnv({ [name]: value })).toThrow(message);
  });

  it("takes SESSION_IDLE_MINUTES as minutes, a fraction allowed, from 0.5 to 480", () => {
    expect(parseEnv({}).SESSION_IDLE_MINUTES).toBe(30);
    expect(parseEnv({ SESSION_IDLE_MINUTES: "0.5" }).SESSION_IDLE_MINUTES).toBe(0.5);
    expect(() => parseEnv({ SESSION_IDLE_MINUTES: "0.2" })).toThrow(/SESSION_IDLE_MINUTES: .*at least 0\.5/);
    expect(() => parseEnv({ SESSION_IDLE_MINUTES: "481" })).toThrow(/SESSION_IDLE_MINUTES: .*at most 480/);
    expect(() => parseEnv({ SESSION_IDLE_MINUTES: "soon" })).toThrow(/SESSION_IDLE_MINUTES: .*number of minutes/);
  });

  it("defaults LOG_LEVEL to info and SHUTDOWN_GRACE_SECONDS to 20", () => {
    expect(parseEnv({})).toMatchObject({ LOG_LEVEL: "info", SHUTDOWN_GRACE_SECONDS: 20 });
  });

  it("lists every problem at once: a bad variable does not hide the rules that depend on SERVICE_BASE_URL", () => {
    const problems = (() => {
      try {
        parseEnv({
          METRICS_TOKEN: "short",
          SERVICE_BASE_URL: "http://api.example.test/v2",
          SERVICE_AUTH_URL: "not a url",
          DEMO_USERS: "on",
        });
      } catch (error) {
        return (error as Error).message.split("\n").slice(1).sort();
      }
      return [];
    })();
    expect(problems).toEqual(
      [
        "  METRICS_TOKEN: METRICS_TOKEN must be at least 24 characters",
        "  AUDIT_SECRET: AUDIT_SECRET is required when SERVICE_BASE_URL is set",
        "  NEXTAUTH_URL: NEXTAUTH_URL is required when SERVICE_BASE_URL is set",
        "  SERVICE_AUTH_URL: SERVICE_AUTH_URL must be an absolute http(s) URL",
        "  SERVICE_CLIENT_ID: SERVICE_CLIENT_ID is required when SERVICE_BASE_URL is set",
        "  SERVICE_CLIENT_SECRET: SERVICE_CLIENT_SECRET is required when SERVICE_BASE_URL is set",
        "  SERVICE_BASE_URL: SERVICE_BASE_URL must use https:// (http:// only to a loopback host)",
        '  DEMO_PASSWORD: DEMO_PASSWORD must be at least 12 characters, and not "demo", while DEMO_USERS=on with a real service',
      ].sort(),
    );
  });
});
