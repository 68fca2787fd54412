/**
 * What a page load costs the server and the browser, and what prefetching every header link on
 * each load cost on top (Next's default, before IntentLink, components/ui/intent-link.tsx). Each
 * round loads each page in a fresh context as an admin at 1280 px, taking turns: once as the
 * dashboard loads it now, once followed by a pointer over every header link, which makes Next
 * prefetch each of those pages as it did on every load before.
 *
 *   npm run build && npm run bench:page-load
 */
import { chromium, type Browser, type Page } from "playwright-core";
import { signIn, startApp, type AppServer } from "../support/app-server";
import { CHROMIUM_ARGS, chromiumPath } from "../support/chromium";
import { treeCpuSeconds } from "./machine";

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const PAGES = ["/orders", "/transfers", "/balances"];

/** Hydrated, the live stream up, nothing fetching (test/support/browser.ts, settled). */
const settled = (page: Page) =>
  page.waitForFunction(
    () => {
      const s = document.querySelector<HTMLElement>("[data-testid=live-status]");
      return s?.dataset.hydrated === "true" && s.dataset.status === "up" && s.dataset.fetching === "0";
    },
    undefined,
    { polling: 50 },
  );

/** Points at each header link, then waits until every prefetch that started has ended. */
async function pointAtHeaderLinks(page: Page): Promise<number> {
  const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
  const count = await links.count();
  const seen = { started: 0, ended: 0 };
  // Each link's prefetch has started, and every one has ended (Next cancels some: they fail).
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prefetches of ${count} links: ${JSON.stringify(seen)}`)), 30_000);
    const tally = (part: keyof typeof seen) => (r: { url(): string }) => {
      if (!r.url().includes("_rsc=")) return;
      seen[part]++;
      if (seen.started >= count && seen.ended === seen.started) resolve(clearTimeout(timer));
    };
    page.on("request", tally("started"));
    page.on("requestfinished", tally("ended"));
    page.on("requestfailed", tally("ended"));
  });
  for (const link of await links.all()) await link.hover();
  await done;
  return seen.started;
}

async function load(app: AppServer, browser: Browser, path: string, pointing: boolean) {
  const session = await signIn(app, "admin@example.com");
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies(session.browserCookies());

  const page = await context.newPage();
  await page.goto(`${app.url}${path}`);
  await settled(page);
  const prefetches = pointing ? await pointAtHeaderLinks(page) : 0;
  await context.close();
  return prefetches;
}

async function main() {
  const app = await startApp({ SANDBOX_MARKET_MAKER: "off" });
  const server = await chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const browser = await chromium.connect(server.wsEndpoint());
  const ways = { "as it loads now": false, "and every header link prefetched": true };
  const spent = new Map(Object.keys(ways).map((way) => [way, { server: 0, browser: 0, prefetches: 0 }]));
  try {
    await load(app, browser, "/orders", false); // warms the server's routes
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of PAGES) {
        for (const [way, pointing] of Object.entries(ways)) {
          const [s, b] = [treeCpuSeconds(app.process.pid!), treeCpuSeconds(server.process().pid!)];
          const prefetches = await load(app, browser, path, pointing);
          const sum = spent.get(way)!;
          sum.server += treeCpuSeconds(app.process.pid!) - s;
          sum.browser += treeCpuSeconds(server.process().pid!) - b;
          sum.prefetches += prefetches;
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await app.dispose();
  }
  const loads = ROUNDS * PAGES.length;
  console.log(`CPU seconds a page load (${PAGES.join(", ")}; ${ROUNDS} rounds; admin at 1280 px):`);
  for (const [way, t] of spent) {
    const per = (n: number) => (n / loads).toFixed(3);
    console.log(
      `  ${way.padEnd(34)} server ${per(t.server)}  browser ${per(t.browser)}  both ${per(t.server + t.browser)}  prefetches ${per(t.prefetches)}`,
    );
  }
  const [now, before] = [...spent.values()].map((t) => t.server + t.browser);
  console.log(`a load now costs ${(now! / before!).toFixed(2)} of one that prefetches every header link`);
}

void main();
