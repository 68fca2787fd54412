import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { onePerRun } from "./run-once";

/**
 * A throwaway PostgreSQL cluster for a test run, from Debian's `postgresql` package:
 * initdb into a temp dir, started on a free loopback port with its sockets in that dir,
 * stopped and removed at the end. Used as the unit project's vitest globalSetup; or,
 * when TEST_DATABASE_URL is set, that server is used instead.
 */

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (a superuser, trust auth). */
  url: string;
  stop(): Promise<void>;
}

/**
 * What the tests receive through inject("postgres"): the server's URL and the name of a database
 * migrated to this build's schema, to copy (`CREATE DATABASE … TEMPLATE`: a migrated database in
 * about three quarters of the time of migrating an empty one, npm run bench:test-databases); or
 * why there is none.
 */
export type ProvidedPostgres = { url: string; migrated: string } | { error: string };

declare module "vitest" {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

/** One cluster for the whole run, whichever projects use it, with its migrated database. */
const cluster = onePerRun(
  "postgres",
  async () => {
    const server = await startPostgres();
    try {
      return { ...server, migrated: await migratedDatabase(server.url) };
    } catch (error) {
      await server.stop();
      throw error;
    }
  },
  (server) => server.stop(),
);

/** vitest globalSetup: provides "postgres" to the tests and stops the cluster afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const migrated = await migratedDatabase(external);
    project.provide("postgres", { url: external, migrated });
    return () => adminQuery(external, `DROP DATABASE IF EXISTS ${migrated} WITH (FORCE)`);
  }
  const { value, release } = cluster.acquire();
  try {
    const { url, migrated } = await value;
    project.provide("postgres", { url, migrated });
  } catch (error) {
    // Provided, not thrown: the PostgreSQL tests fail with this message while the rest of the run goes on.
    project.provide("postgres", { error: error instanceof Error ? error.message : String(error) });
  }
  return release;
}

/** `url` with its database named `database`. */
export function withDatabase(url: string, database: string): string {
  const at = new URL(url);
  at.pathname = `/${database}`;
  return at.href;
}

/** Runs one statement as the server's superuser (CREATE and DROP DATABASE run outside a transaction). */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A database migrated to this build's schema, its connections closed so it can be copied; its name. */
export async function migratedDatabase(url: string): Promise<string> {
  const name = `migrated_${randomBytes(6).toString("hex")}`;
  await adminQuery(url, `CREATE DATABASE ${name}`);
  const { createDb } = await import("@/lib/server/db");
  await (await createDb({ kind: "postgres", url: withDatabase(url, name) })).destroy();
  return name;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), "pg-test-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "postgres.log");
  // PostgreSQL refuses to run as root: hand the directory to the postgres user and run as it.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await postgresUser();
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    asRoot
      ? exec("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args], dir)
      : exec(path.join(bin, tool), args, dir);

  try {
    await run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
    const port = await freePort();
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      // A throwaway cluster: durability traded for speed.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ");
    await run("pg_ctl", ["-D", data, "-l", log, "-o", options, "-w", "-t", "30", "start"]);
    const watchdog = startWatchdog(bin, data, dir, asRoot);
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        if (stopped) return;
        stopped = true;
        if (watchdog.pid) process.kill(watchdog.pid);
        try {
          await run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").slice(-10).join("\n") : "";
    rmSync(dir, { recursive: true, force: true });
    if (!serverLog) throw error;
    throw new Error(`${error instanceof Error ? error.message : error}\nserver log:\n${serverLog}`);
  }
}

/**
 * A test run killed before its teardown (a `timeout`, Ctrl-C) must not leave a server
 * behind: a detached shell waits for this process to end, then stops the cluster and
 * removes its directory. A normal stop() kills the watchdog first.
 */
function startWatchdog(bin: string, data: string, dir: string, asRoot: boolean) {
  const script = [
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done',
    'if [ "$5" = 1 ]; then runuser -u postgres -- "$2/pg_ctl" -D "$3" -m immediate -w stop',
    'else "$2/pg_ctl" -D "$3" -m immediate -w stop; fi',
    'rm -rf "$4"',
  ].join("\n");
  const args = ["-c", script, "pg-test-watchdog", String(process.pid), bin, data, dir, asRoot ? "1" : "0"];
  const child = spawn("sh", args, { detached: true, stdio: "ignore", cwd: dir });
  child.unref();
  return child;
}

/** The newest /usr/lib/postgresql/<version>/bin, or the directory of an initdb on PATH. */
export function findPostgresBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], "bin");
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, "initdb"))) return dir;
  }
  throw new Error(
    "PostgreSQL is not installed: no initdb under /usr/lib/postgresql/*/bin or on PATH. " +
      "Install it (apt-get install -y postgresql) or set TEST_DATABASE_URL to a server the tests may use.",
  );
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([exec("id", ["-u", "postgres"]), exec("id", ["-g", "postgres"])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Runs a command and resolves with its stdout. Waits for 'exit', not 'close':
 * pg_ctl leaves the server running, and it must not hold the run up.
 */
function exec(command: string, args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}: ${err.trim() || out.trim()}`));
    });
  });
}
