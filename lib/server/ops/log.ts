import "server-only";
import { createRequire } from "node:module";
import { join } from "node:path";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { LOG_LEVELS, type LogLevel } from "../env-schema";
import { currentRequest } from "../http/request-context";

/**
 * The server's one logger: JSON lines (pino) on stdout, for a log pipeline; readable lines
 * under `next dev`. Every line made while a request is handled carries its request_id.
 *
 * Secrets never reach a line: fields named like one (cookies, Authorization, passwords, client
 * secrets, tokens) are replaced wherever they sit in what is logged, up to four levels deep, and
 * the configured secrets' values are cut out of error messages and stacks.
 */

const SECRET_FIELDS = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "password",
  "client_secret",
  "clientSecret",
  "secret",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "csrfToken",
  // A database URL's password.
  "connectionString",
];

/** pino's redaction paths: each field at the top and below up to three levels of anything. */
export const REDACTED_PATHS = ["", "*.", "*.*.", "*.*.*."]
  .flatMap((depth) =>
    SECRET_FIELDS.map((field) => (/^[A-Za-z_$][\w$]*$/.test(field) ? `${depth}${field}` : `${depth}["${field}"]`)),
  )
  .map((path) => path.replace(/\.\[/g, "["));

export const REDACTED = "[redacted]";

/** The variables whose values are secrets, cut out of free text (messages, stacks, reasons). */
const SECRET_VARIABLES = [
  "SERVICE_CLIENT_SECRET",
  "SANDBOX_CLIENT_SECRET",
  "OIDC_CLIENT_SECRET",
  "NEXTAUTH_SECRET",
  "AUDIT_SECRET",
  "METRICS_TOKEN",
  "DEMO_PASSWORD",
];

/** Configured secrets long enough to be told apart from ordinary words, and DATABASE_URL's and SMTP_URL's passwords. */
function secretValues(source: Record<string, string | undefined> = process.env): string[] {
  const values = SECRET_VARIABLES.map((name) => source[name] ?? "");
  for (const name of ["DATABASE_URL", "SMTP_URL"]) {
    try {
      if (source[name]) values.push(decodeURIComponent(new URL(source[name]).password));
    } catch {
      // not a URL: the configuration check refuses it
    }
  }
  return values.filter((v) => v.length >= 8);
}

/** `text` with every configured secret replaced. */
export function scrub(text: string, secrets: readonly string[] = secretValues()): string {
  let safe = text;
  for (const secret of secrets) safe = safe.split(secret).join(REDACTED);
  return safe;
}

/** pino's error serializer (type, message, stack, own fields), with secrets cut out of message and stack. */
function errorFields(error: unknown) {
  const fields = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  for (const key of ["message", "stack"]) {
    if (typeof fields[key] === "string") fields[key] = scrub(fields[key] as string);
  }
  return fields;
}

export const levelOf = (value: string | undefined): LogLevel =>
  LOG_LEVELS.includes(value as LogLevel) ? (value as LogLevel) : "info";

export function loggerOptions(level: LogLevel): LoggerOptions {
  return {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    // "info", not 30: a person reading the line and a pipeline's filter both see the word.
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { err: errorFields, error: errorFields },
    // Lines made while a request is handled say which one (the request's own line sets it too).
    mixin: () => {
      const request = currentRequest();
      return request ? { request_id: request.id } : {};
    },
  };
}

/**
 * Under `next dev`, pino-pretty's readable lines (a development dependency, loaded from the
 * project at run time so the production bundle never needs it); JSON when it is not installed.
 */
function destination(): DestinationStream | undefined {
  if (process.env.NODE_ENV !== "development") return pino.destination({ dest: 1, sync: true });
  try {
    const pretty = createRequire(join(process.cwd(), "package.json"))("pino-pretty") as (
      options: object,
    ) => DestinationStream;
    return pretty({ sync: true, singleLine: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l" });
  } catch {
    return undefined;
  }
}

export const log: Logger = pino(loggerOptions(levelOf(process.env.LOG_LEVEL)), destination());

/** next-auth's messages as log lines (its own logger writes to the console). */
export const nextAuthLogger = {
  error(code: string, metadata: unknown) {
    const err = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | null)?.error;
    log.error({ code, err, detail: metadata instanceof Error ? undefined : metadata }, `next-auth: ${code}`);
  },
  warn(code: string) {
    log.warn({ code }, `next-auth: ${code}`);
  },
  debug(code: string, metadata: unknown) {
    log.debug({ code, detail: metadata }, `next-auth: ${code}`);
  },
};
