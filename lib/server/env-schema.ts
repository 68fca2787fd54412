import * as z from "zod";
import { SCOPES } from "@/lib/spec/operations";

/**
 * The dashboard's configuration, validated once at start (instrumentation.ts).
 * Every variable has a working default for a demo; the real service needs four.
 * Kept free of "server-only" so it can be unit-tested; lib/server/env.ts guards it.
 */

const onOff = (name: string) => z.enum(["on", "off"], { error: `${name} must be "on" or "off"` });
const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be greater than zero`);
/** pino's levels, most to least severe. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The rules between variables run even when a variable is bad on its own (zod skips them by
 * default): a start that fails lists every problem at once. They see the raw value of a bad one.
 */
const EVEN_WITH_BAD_VALUES = { when: () => true };

const url = (name: string) => z.url({ error: `${name} must be an absolute http(s) URL`, protocol: /^https?$/ });

export const envSchema = z
  .object({
    PORT: positiveInt("PORT").max(65535, "PORT must be at most 65535").default(3000),
    // Unset: on while no real service is configured, off once SERVICE_BASE_URL is set.
    SANDBOX: onOff("SANDBOX").optional(),
    SANDBOX_CLIENT_ID: z.string().min(1).default("dashboard"),
    SANDBOX_CLIENT_SECRET: z.string().min(1).default("sandbox-secret"),
    SANDBOX_TOKEN_TTL_SECONDS: positiveInt("SANDBOX_TOKEN_TTL_SECONDS").default(3600),
    SANDBOX_TOKEN_RATE_PER_SECOND: positiveInt("SANDBOX_TOKEN_RATE_PER_SECOND").default(1),
    SANDBOX_API_RATE_PER_SECOND: positiveInt("SANDBOX_API_RATE_PER_SECOND").default(50),
    SANDBOX_TRANSFER_RATE_PER_SECOND: positiveInt("SANDBOX_TRANSFER_RATE_PER_SECOND").default(20),
    SANDBOX_ORDER_BOOK_RATE_PER_SECOND: positiveInt("SANDBOX_ORDER_BOOK_RATE_PER_SECOND").default(10),
    // How long a client that earned a 429 is refused, as the service does (five minutes).
    SANDBOX_RATE_PENALTY_SECONDS: z.coerce
      .number({ error: "SANDBOX_RATE_PENALTY_SECONDS must be a whole number" })
      .int("SANDBOX_RATE_PENALTY_SECONDS must be a whole number")
      .min(0, "SANDBOX_RATE_PENALTY_SECONDS must be zero or more")
      .default(300),
    SANDBOX_MARKET_MAKER: onOff("SANDBOX_MARKET_MAKER").default("on"),
    SANDBOX_SEED: z.string().min(1).default("demo"),
    SANDBOX_TRANSFER_SETTLE_MS: z.coerce
      .number({ error: "SANDBOX_TRANSFER_SETTLE_MS must be a whole number" })
      .int("SANDBOX_TRANSFER_SETTLE_MS must be a whole number")
      .min(0, "SANDBOX_TRANSFER_SETTLE_MS must be zero or more")
      .default(1500),
    // The service only acknowledges a cancel; the order becomes CANCELLED this long after.
    SANDBOX_CANCEL_SETTLE_MS: z.coerce
      .number({ error: "SANDBOX_CANCEL_SETTLE_MS must be a whole number" })
      .int("SANDBOX_CANCEL_SETTLE_MS must be a whole number")
      .min(0, "SANDBOX_CANCEL_SETTLE_MS must be zero or more")
      .default(500),
    SERVICE_BASE_URL: url("SERVICE_BASE_URL").optional(),
    SERVICE_AUTH_URL: url("SERVICE_AUTH_URL").optional(),
    SERVICE_CLIENT_ID: z.string().min(1).optional(),
    SERVICE_CLIENT_SECRET: z.string().min(1).optional(),
    SERVICE_TIMEOUT_MS: positiveInt("SERVICE_TIMEOUT_MS").default(15_000),
    // The dashboard's budget per rate class; unset: the service's published limits (the sandbox's own with it).
    SERVICE_API_RATE_PER_SECOND: positiveInt("SERVICE_API_RATE_PER_SECOND").optional(),
    SERVICE_TRANSFER_RATE_PER_SECOND: positiveInt("SERVICE_TRANSFER_RATE_PER_SECOND").optional(),
    SERVICE_ORDER_BOOK_RATE_PER_SECOND: positiveInt("SERVICE_ORDER_BOOK_RATE_PER_SECOND").optional(),
    SERVICE_TOKEN_RATE_PER_SECOND: positiveInt("SERVICE_TOKEN_RATE_PER_SECOND").optional(),
    // The scopes the one token asks for, exactly; a feature whose scope is not among them is off (403).
    SERVICE_SCOPES: z
      .string()
      .transform((text) => [...new Set(text.split(/\s+/).filter(Boolean))])
      .pipe(
        z
          .array(
            z.enum(SCOPES, {
              error: (issue) =>
                `SERVICE_SCOPES: "${String(issue.input)}" is not a scope the dashboard uses (${SCOPES.join(" ")})`,
            }),
          )
          .min(1, "SERVICE_SCOPES must name at least one scope"),
      )
      .default([...SCOPES]),
    // How long every call is held after a 429 without Retry-After; unset: 300 (the sandbox's penalty with it).
    SERVICE_RATE_PENALTY_SECONDS: positiveInt("SERVICE_RATE_PENALTY_SECONDS")
      .max(3600, "SERVICE_RATE_PENALTY_SECONDS may be at most 3600")
      .optional(),
    // Scrapers of GET /api/metrics send it as a bearer token; unset, only admins' sessions may read metrics.
    METRICS_TOKEN: z.string().min(24, "METRICS_TOKEN must be at least 24 characters").optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)")
      .optional(),
    DATA_DIR: z.string().min(1).default("./data"),
    DEMO_PASSWORD: z.string().min(1).default("demo"),
    DEMO_USERS: onOff("DEMO_USERS").optional(),
    NEXTAUTH_SECRET: z.string().min(32, "NEXTAUTH_SECRET must be at least 32 characters").optional(),
    NEXTAUTH_URL: url("NEXTAUTH_URL").optional(),
    // A session unused this long ends; it never outlives 8 hours from sign-in either way. A
    // fraction is allowed (0.5 is 30 s): the end is checked at its deadline, not once a minute.
    SESSION_IDLE_MINUTES: z.coerce
      .number({ error: "SESSION_IDLE_MINUTES must be a number of minutes such as 30 or 0.5" })
      .min(0.5, "SESSION_IDLE_MINUTES must be at least 0.5 (30 seconds)")
      .max(480, "SESSION_IDLE_MINUTES may be at most 480")
      .default(30),
    // Requests a personal API token may make a minute (each token its own bucket, per instance).
    TOKEN_RATE_PER_MINUTE: positiveInt("TOKEN_RATE_PER_MINUTE")
      .max(60_000, "TOKEN_RATE_PER_MINUTE may be at most 60000")
      .default(120),
    AUDIT_SECRET: z.string().min(32, "AUDIT_SECRET must be at least 32 characters").optional(),
    OIDC_ISSUER: url("OIDC_ISSUER").optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_ROLE_CLAIM: z.string().min(1).default("role"),
    // Comma-separated addresses of the reverse proxies whose X-Forwarded-For is believed.
    TRUSTED_PROXY_IPS: z
      .string()
      .regex(/^[0-9A-Fa-f.:,\s]+$/, "TRUSTED_PROXY_IPS must be a comma-separated list of IP addresses")
      .optional(),
    // Which log lines are written (pino's levels); `silent` writes none.
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
    // How long SIGTERM/SIGINT waits for requests in flight (creates finishing) before the process stops anyway.
    SHUTDOWN_GRACE_SECONDS: positiveInt("SHUTDOWN_GRACE_SECONDS")
      .max(3600, "SHUTDOWN_GRACE_SECONDS may be at most 3600")
      .default(20),
    // Events out (issue 30): hosts a webhook may reach over http:// and at private addresses, comma-separated.
    WEBHOOK_ALLOW_HOSTS: z.string().optional(),
    // Email through SMTP (smtp:// or smtps://, credentials in the URL); unset, no email is sent.
    SMTP_URL: z
      .string()
      .regex(
        /^smtps?:\/\/[^\s]+$/,
        "SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:pass@mail.example.com:465",
      )
      .optional(),
    MAIL_FROM: z
      .string()
      .min(3, "MAIL_FROM must be an address such as Treasury <treasury@example.com>")
      .default("Treasury dashboard <treasury@localhost>"),
    // Set only by the test harness (test/support/app-server.ts): its secret for the runtime's test
    // control (lib/server/ops/test-control.ts). Unset, no such control exists.
    DASHBOARD_TEST_CONTROL: z
      .string()
      .min(24, "DASHBOARD_TEST_CONTROL must be at least 24 characters (the test harness sets it)")
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.DASHBOARD_TEST_CONTROL && env.SERVICE_BASE_URL) {
      // A deployment that talks to a real service can never have a surface that resets or moves it.
      ctx.addIssue({
        code: "custom",
        path: ["DASHBOARD_TEST_CONTROL"],
        message: "DASHBOARD_TEST_CONTROL is for the test harness only: it must not be set with SERVICE_BASE_URL",
      });
    }
    const need = (names: (keyof typeof env)[], when: string) => {
      for (const name of names) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required ${when}` });
      }
    };
    if (env.SERVICE_BASE_URL) {
      // A real service: no audit key generated beside the trail it guards, and no public URL read
      // from a request's X-Forwarded-Host (links, the cookie's Secure flag, the same-origin check).
      need(
        ["SERVICE_AUTH_URL", "SERVICE_CLIENT_ID", "SERVICE_CLIENT_SECRET", "AUDIT_SECRET", "NEXTAUTH_URL"],
        "when SERVICE_BASE_URL is set",
      );
      for (const name of ["SERVICE_BASE_URL", "SERVICE_AUTH_URL"] as const) {
        if (env[name] && insecureRemote(env[name])) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `${name} must use https:// (http:// only to a loopback host)`,
          });
        }
      }
      if (demoUsersOn(env) && weakPassword(env.DEMO_PASSWORD)) {
        ctx.addIssue({
          code: "custom",
          path: ["DEMO_PASSWORD"],
          message:
            'DEMO_PASSWORD must be at least 12 characters, and not "demo", while DEMO_USERS=on with a real service',
        });
      }
    } else if (env.SANDBOX === "off") {
      need(["SERVICE_BASE_URL"], "when SANDBOX=off (there is no service to talk to)");
    }
    if (env.OIDC_ISSUER || env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET) {
      need(["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"], "to sign in with OIDC");
    }
  }, EVEN_WITH_BAD_VALUES);

/** Demo users are offered only with the embedded sandbox, unless DEMO_USERS=on says otherwise. */
export const demoUsersOn = (env: { DEMO_USERS?: "on" | "off"; SERVICE_BASE_URL?: string; SANDBOX?: "on" | "off" }) =>
  env.DEMO_USERS === "on" || (env.DEMO_USERS !== "off" && !env.SERVICE_BASE_URL && env.SANDBOX !== "off");

const weakPassword = (password: string) => password.length < 12 || password.toLowerCase() === "demo";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const insecureRemote = (url: string) => {
  if (!URL.canParse(url)) return false; // no URL at all: its own rule says so
  const u = new URL(url);
  return u.protocol === "http:" && !LOOPBACK.has(u.hostname);
};

export type EnvSource = Record<string, string | undefined>;

export interface ServiceConfig {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** True when the dashboard talks to its own embedded sandbox. */
  isSandbox: boolean;
}

export type Env = Omit<z.infer<typeof envSchema>, "SANDBOX"> & { SANDBOX: "on" | "off"; service: ServiceConfig };

/** Parses the environment; throws one error listing every bad variable and its rule. */
export function parseEnv(source: EnvSource): Env {
  // An empty variable means "unset", as in most .env tooling.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const sandbox = result.data.SANDBOX ?? (result.data.SERVICE_BASE_URL ? "off" : "on");
  return { ...result.data, SANDBOX: sandbox, service: serviceConfig(result.data) };
}

function serviceConfig(env: z.infer<typeof envSchema>): ServiceConfig {
  if (env.SERVICE_BASE_URL) {
    return {
      baseUrl: env.SERVICE_BASE_URL.replace(/\/+$/, ""),
      authUrl: env.SERVICE_AUTH_URL!,
      clientId: env.SERVICE_CLIENT_ID!,
      clientSecret: env.SERVICE_CLIENT_SECRET!,
      isSandbox: false,
    };
  }
  const origin = `http://127.0.0.1:${env.PORT}`;
  return {
    baseUrl: `${origin}/sandbox/v2`,
    authUrl: `${origin}/sandbox/oauth2/token`,
    clientId: env.SANDBOX_CLIENT_ID,
    clientSecret: env.SANDBOX_CLIENT_SECRET,
    isSandbox: true,
  };
}
