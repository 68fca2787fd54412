/**
 * A desk: ten browsers on two instances of the dashboard sharing one PostgreSQL, as issue 11's
 * "done when" asks. It prints how long each order and transfer change takes to reach every
 * screen, and what the screens cost the service as they are added.
 *
 *   npm run build && npm run bench:desk [-- <changes per kind>]
 *
 * Two `next start` processes share a fresh PostgreSQL cluster (initdb, as the tests start one)
 * and one sandbox, reached through a counting proxy. Screens alternate between the instances:
 * six show the orders page (ticket, book, chart, table), four the transfers page. A trader on
 * instance A places orders and cancels them; an ops user on instance B makes transfers, which
 * the sandbox settles a moment later. Each change is timed from the call that makes it to the
 * moment the row on each screen shows it. A create's own answer is pushed at once; what the
 * service does next (the order rests: OPEN; the transfer settles) is found by the watcher.
 */
import { chromium, type Browser, type Page } from "playwright-core";
import { profileId } from "@/lib/sandbox/seed";
import { signIn, startApp, TEST_PASSWORD, type AppServer } from "../support/app-server";
import { chromiumPath } from "../support/chromium";
import { startFaultProxy } from "../support/fault-proxy";
import { startPostgres } from "../support/postgres";
import { startSandboxServer, testConfig } from "../support/sandbox-server";

const CHANGES = Number(process.argv[2] ?? 10);
const COUNT_WINDOW_MS = 20_000;
const SCREENS = [
  ...Array.from({ length: 6 }, (_, i) => ({ path: "/orders", email: ["viewer", "trader", "admin"][i % 3]! })),
  ...Array.from({ length: 4 }, (_, i) => ({ path: "/transfers", email: ["ops", "viewer"][i % 2]! })),
].map((s, i) => ({ ...s, email: `${s.email}@example.com`, instance: i % 2 }));
/** One screen of each kind (page and role), on both instances. */
const FIRST = [0, 1, 2, 6, 7];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function openScreen(browser: Browser, app: AppServer, email: string, path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.addInitScript(noteArrivals);
  await page.goto(`${app.url}/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/orders$/);
  if (path !== "/orders") await page.goto(`${app.url}${path}`);
  await page.locator(`[data-testid="live-status"][data-status="up"]`).waitFor({ state: "attached", timeout: 30_000 });
  return page;
}

/**
 * Runs in each page before its scripts: notes when each order and transfer event first arrives
 * on the page's stream, by `kind:id:status`, so arrival can be told apart from drawing.
 */
function noteArrivals() {
  const arrived: Record<string, number> = {};
  (window as unknown as { arrived: typeof arrived }).arrived = arrived;
  const listen = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (this: EventSource, ...args: Parameters<typeof listen>) {
    const [type] = args;
    if (type === "order" || type === "transfer") {
      listen.call(this, type, (e) => {
        const record = JSON.parse((e as MessageEvent<string>).data) as {
          id: string;
          group_id?: string;
          status: string;
        };
        arrived[`${type}:${record.id}:${record.status}`] ??= Date.now();
        if (record.group_id) arrived[`${type}:group:${record.group_id}:${record.status}`] ??= Date.now();
      });
    }
    return listen.apply(this, args);
  } as typeof listen;
}

/**
 * Milliseconds from `since` until `key` (kind:id:status) first arrived on `page`'s stream;
 * undefined when the page learnt it otherwise (a list read again brought the newer state).
 */
async function arrived(page: Page, key: string, since: number): Promise<number | undefined> {
  const at = await page.evaluate((k) => (window as unknown as { arrived: Record<string, number> }).arrived[k], key);
  return at === undefined ? undefined : at - since;
}

/** Milliseconds from `since` until the row of `id` on `page` holds `text`. */
async function seen(page: Page, id: string, text: string, since: number): Promise<number> {
  await page.locator(`tr[data-row="${id}"]`, { hasText: text }).waitFor({ state: "attached", timeout: 15_000 });
  return Date.now() - since;
}

function report(what: string, times: number[]) {
  times.sort((a, b) => a - b);
  console.log(
    `  ${what.padEnd(44)} p50 ${String(quantile(times, 0.5)).padStart(4)} ms  p95 ${String(quantile(times, 0.95)).padStart(4)} ms  max ${String(times.at(-1)).padStart(4)} ms  (${times.length} arrivals)`,
  );
}

async function main() {
  const pg = await startPostgres();
  const sandbox = await startSandboxServer(testConfig({ marketMaker: true }));
  const proxy = await startFaultProxy();
  proxy.setTarget(Number(new URL(sandbox.url).port));
  const env = { ...proxy.env(), DATABASE_URL: pg.url };
  const apps = await Promise.all([startApp(env), startApp(env)]);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const trader = await signIn(apps[0]!, "trader@example.com");
    const ops = await signIn(apps[1]!, "ops@example.com");
    const counted = async (screens: number) => {
      await sleep(3_000);
      const before = proxy.count();
      await sleep(COUNT_WINDOW_MS);
      const perMinute = ((proxy.count() - before) * 60_000) / COUNT_WINDOW_MS;
      console.log(`  ${String(screens).padStart(2)} screens: ${perMinute.toFixed(0)} calls/min`);
      return perMinute;
    };

    // First one screen of each kind, then the same kinds again: what more screens cost, apart
    // from what more things on screen cost (each profile's balances, each market's ticker).
    console.log(`Calls reaching the service per minute, quiet desk (counted over ${COUNT_WINDOW_MS / 1000} s)`);
    const pages: Page[] = [];
    const open = (s: (typeof SCREENS)[number]) => openScreen(browser, apps[s.instance]!, s.email, s.path);
    for (const s of FIRST) pages.push(await open(SCREENS[s]!));
    const few = await counted(FIRST.length);
    for (const [i, s] of SCREENS.entries()) if (!FIRST.includes(i)) pages.splice(i, 0, await open(s));
    const ten = await counted(SCREENS.length);
    console.log(`  ${SCREENS.length} screens cost ${(ten / few).toFixed(2)}x what ${FIRST.length} cost`);

    const orderScreens = pages.filter((_, i) => SCREENS[i]!.path === "/orders");
    const transferScreens = pages.filter((_, i) => SCREENS[i]!.path === "/transfers");
    /** For each change: when it arrived on each screen's stream, and when its row showed it. */
    const timings = new Map<string, { arrived: number[]; drawn: number[] }>();
    const time = async (what: string, screens: Page[], rowId: string, text: string, event: string, at: number) => {
      const t = timings.get(what) ?? { arrived: [], drawn: [] };
      timings.set(what, t);
      await Promise.all(
        screens.map(async (p) => {
          t.drawn.push(await seen(p, rowId, text, at));
          const ms = await arrived(p, event, at);
          if (ms !== undefined) t.arrived.push(ms);
        }),
      );
    };
    for (let i = 0; i < CHANGES; i++) {
      const ref = `desk-${Date.now()}-${i}`;
      const order = {
        market: "ETHUSD",
        side: "BUY",
        type: "LIMIT",
        price: "100.00",
        base_amount: `0.0${i + 1}`,
        ref_id: ref,
      };
      let at = Date.now();
      const placed = await trader.call("POST", `/api/v2/profiles/${profileId("trading")}/orders`, order);
      if (placed.status !== 200) throw new Error(`order answered ${placed.status}: ${JSON.stringify(placed.body)}`);
      const { id, status } = placed.body as { id: string; status: string };
      await Promise.all([
        time("order placed on A -> row shown", orderScreens, id, "", `order:${id}:${status}`, at),
        time("order placed -> row OPEN", orderScreens, id, "OPEN", `order:${id}:OPEN`, at),
      ]);
      at = Date.now();
      await trader.call("DELETE", `/api/v2/profiles/${profileId("trading")}/orders/${id}`);
      await time("order cancelled -> row CANCELLED", orderScreens, id, "CANCELLED", `order:${id}:CANCELLED`, at);

      const transfer = {
        from_profile_id: profileId("treasury"),
        to_profile_id: profileId("settlement"),
        asset: "USD",
        amount: `1.${String(i).padStart(2, "0")}`,
        ref_id: `${ref}-t`,
      };
      at = Date.now();
      const made = await ops.call("POST", "/api/v2/transfer/internal", transfer);
      if (made.status !== 200) throw new Error(`transfer answered ${made.status}: ${JSON.stringify(made.body)}`);
      // A transfer's row is its group (both legs), keyed as lib/shared/transfer-rows.ts keys it.
      const leg = made.body as { id: string; group_id?: string; status: string };
      const row = leg.group_id ? `group:${leg.group_id}` : `transfer:${leg.id}`;
      const key = (s: string) => (leg.group_id ? `transfer:group:${leg.group_id}:${s}` : `transfer:${leg.id}:${s}`);
      await Promise.all([
        time("transfer made on B -> row shown", transferScreens, row, "", key(leg.status), at),
        time("transfer made -> row COMPLETED", transferScreens, row, "COMPLETED", key("COMPLETED"), at),
      ]);
    }
    console.log(
      `Changes reaching every screen (${CHANGES} of each; orders on ${orderScreens.length} screens, transfers on ${transferScreens.length}): on the page's stream, then drawn`,
    );
    for (const [what, t] of timings) {
      report(`${what} (stream)`, t.arrived);
      report(`${what} (drawn)`, t.drawn);
    }
  } finally {
    await browser.close();
    await Promise.all(apps.map((a) => a.dispose()));
    await proxy.close();
    await sandbox.close();
    await pg.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
