import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startApp, type AppServer } from "../../support/app-server";
import { newRef, smallOrder, TRADING, type Database } from "../../support/dashboard";
import { freshPostgresDatabase } from "../../support/databases";

/**
 * The one folder to ship: .next/standalone as `npm run build` leaves it, copied alone into the
 * OS's temp directory (no node_modules anywhere above it, nothing of the repository reachable),
 * runs the dashboard with `node server.js`: its pages and static files, sign-in, an order placed
 * and journaled, on SQLite and on PostgreSQL, with the native SQLite addon loaded from the folder.
 * One server.js for both: its runtime is reset from one database to the other (the test control).
 */

/** The standalone folder of the build the tests run (next.config.js's distDir). */
const BUILT = resolve(process.env.NEXT_DIST_DIR || ".next", "standalone");
let root: string;
let folder: string;
let app: AppServer;

beforeAll(async () => {
  if (!existsSync(join(BUILT, "server.js")) || !existsSync(join(BUILT, ".next/static")))
    throw new Error("No complete standalone folder: run `npm run build` (it copies public and .next/static in).");
  root = mkdtempSync(join(tmpdir(), "standalone-"));
  folder = join(root, "dashboard");
  // Links as they are (relative, inside the folder): resolved, they would point back into the repository.
  cpSync(BUILT, folder, { recursive: true, verbatimSymlinks: true });
  // A process of its own: the standalone server, not next start.
  app = await startApp(
    // server.js listens on HOSTNAME (Next's default 0.0.0.0); nothing may reach the repository's modules.
    { HOSTNAME: "127.0.0.1", NODE_PATH: "", NODE_OPTIONS: "" },
    undefined,
    { launch: { cwd: folder, args: ["server.js"] }, control: true },
  );
});
afterAll(async () => {
  await app?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Every symbolic link under `dir`. */
function links(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) return [path];
    return entry.isDirectory() ? links(path) : [];
  });
}

const inside = (path: string, dir: string) => !relative(dir, path).startsWith("..");

it("is a folder apart: outside the repository, no node_modules above it, every link resolving inside it", () => {
  expect(inside(folder, process.cwd())).toBe(false);
  for (let dir = dirname(folder); ; dir = dirname(dir)) {
    expect(existsSync(join(dir, "node_modules")), `${dir}/node_modules`).toBe(false);
    if (dirname(dir) === dir) break;
  }
  const found = links(folder);
  expect(found.length).toBeGreaterThan(0);
  for (const link of found) expect(inside(realpathSync(link), folder), link).toBe(true);
  expect(lstatSync(join(folder, "node_modules/better-sqlite3/build/Release/better_sqlite3.node")).isFile()).toBe(true);
});

describe.each<Database>(["sqlite", "postgres"])("the folder alone, on %s", (database) => {
  let databaseUrl: string | undefined;
  let dataDir: string;
  beforeAll(async () => {
    databaseUrl = database === "postgres" ? await freshPostgresDatabase() : undefined;
    ({ data_dir: dataDir } = await app.control!.reset(databaseUrl ? { DATABASE_URL: databaseUrl } : {}));
  });

  it("serves its pages with their static files and the public folder", async () => {
    const page = await fetch(`${app.url}/signin`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect((await fetch(`${app.url}${asset}`)).status, asset).toBe(200);
    expect((await fetch(`${app.url}/logo.svg`)).status).toBe(200);
  });

  it("signs a demo user in and places an order, journaled in its database", async () => {
    const trader = await signIn(app, "trader@example.com");
    expect(trader.signedIn).toBe(true);
    const ref = newRef("standalone");
    const res = await trader.call("POST", `/api/v2/profiles/${TRADING}/orders`, smallOrder(ref));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ref_id: ref, status: "SUBMITTED", profile_id: TRADING });

    const admin = await signIn(app, "admin@example.com");
    const journal = await admin.call("GET", `/api/activity?ref_ids=${ref}`);
    expect(journal.body.items).toEqual([expect.objectContaining({ status: "succeeded", result_id: res.body.id })]);
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const rows = await client
        .query("SELECT status FROM journal WHERE ref_id = $1", [ref])
        .finally(() => client.end());
      expect(rows.rows).toEqual([{ status: "succeeded" }]);
      expect(existsSync(join(dataDir, "dashboard.db"))).toBe(false);
    } else {
      expect(existsSync(join(dataDir, "dashboard.db"))).toBe(true);
    }
  });

  it("loads the native SQLite addon from the folder itself", () => {
    // The sandbox's store is SQLite on both databases: the addon is mapped into the process.
    const maps = readFileSync(`/proc/${app.process.pid}/maps`, "utf8");
    const addons = [...new Set(maps.split("\n").filter((l) => l.includes("better_sqlite3.node")))].map((l) =>
      l.slice(l.indexOf("/")),
    );
    expect(addons.length).toBeGreaterThan(0);
    for (const addon of addons) expect(inside(addon, realpathSync(folder)), addon).toBe(true);
  });
});
