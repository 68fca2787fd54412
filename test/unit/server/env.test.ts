import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/server/env-schema";

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

  it("points at a real deployment with the four service variables", () => {
    const env = parseEnv({
      SERVICE_BASE_URL: "https://api.example.test/v2/",
      SERVICE_AUTH_URL: "https://oauth.example.test/oauth2/token",
      SERVICE_CLIENT_ID: "id",
      SERVICE_CLIENT_SECRET: "secret",
    });
    expect(env.service).toMatchObject({ baseUrl: "https://api.example.test/v2", isSandbox: false });
  });

  it("names each missing companion of SERVICE_BASE_URL", () => {
    expect(() => parseEnv({ SERVICE_BASE_URL: "https://api.example.test/v2" })).toThrow(
      /SERVICE_AUTH_URL: SERVICE_AUTH_URL is required[\s\S]*SERVICE_CLIENT_ID[\s\S]*SERVICE_CLIENT_SECRET/,
    );
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
        "  SERVICE_AUTH_URL: SERVICE_AUTH_URL must be an absolute http(s) URL",
        "  SERVICE_CLIENT_ID: SERVICE_CLIENT_ID is required when SERVICE_BASE_URL is set",
        "  SERVICE_CLIENT_SECRET: SERVICE_CLIENT_SECRET is required when SERVICE_BASE_URL is set",
        "  SERVICE_BASE_URL: SERVICE_BASE_URL must use https:// (http:// only to a loopback host)",
        '  DEMO_PASSWORD: DEMO_PASSWORD must be at least 12 characters, and not "demo", while DEMO_USERS=on with a real service',
      ].sort(),
    );
  });
});
