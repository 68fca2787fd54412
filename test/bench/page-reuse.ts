/**
 * What a page load costs on a new page against one on a page kept from an earlier load (keptPage,
 * test/support/browser.ts): the kept page is reset between loads as keptPage gives it back (its
 * storage emptied, about:blank, its cookies cleared) and signed in again. Each round loads each
 * page once each way as an admin at 1280 px, taking turns; the server's and the browser's CPU
 * are counted.
 *
 *   npm run build && npm run bench:page-reuse
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { signIn, startApp, type AppServer } from "../support/app-server";
import { CHROMIUM_ARGS, chromiumPath } from "../support/chromium";
import { treeCpuSeconds } from "./machine";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PAGES = ["/orders", "/transfers", "/balances"];
const VIEWPORT = { width: 1280, height: 800 };

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

async function onNewPage(app: AppServer, browser: Browser, path: string): Promise<void> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addCookies((await signIn(app, "admin@example.com")).browserCookies());
  const page = await context.newPage();
  await page.goto(`${app.url}${path}`);
  await settled(page);
  await context.close();
}

/** One page kept across loads, given back after each as keptPage does. */
function onKeptPage(browser: Browser) {
  let kept: { context: BrowserContext; page: Page } | undefined;
  return async (app: AppServer, path: string): Promise<void> => {
    if (!kept) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      kept = { context, page: await context.newPage() };
    }
    const { context, page } = kept;
    await context.addCookies((await signIn(app, "admin@example.com")).browserCookies());
    await page.goto(`${app.url}${path}`);
    await settled(page);
    await page.evaluate(() => (localStorage.clear(), sessionStorage.clear()));
    await page.goto("about:blank");
    await context.clearCookies();
  };
}

async function main() {
  const app = await startApp({ SANDBOX_MARKET_MAKER: "off" });
  const server = await chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const browser = await chromium.connect(server.wsEndpoint());
  const kept = onKeptPage(browser);
  const ways = {
    "a new page": (path: string) => onNewPage(app, browser, path),
    "a kept page": (path: string) => kept(app, path),
  };
  const spent = new Map(Object.keys(ways).map((way) => [way, { server: 0, browser: 0 }]));
  try {
    await onNewPage(app, browser, "/orders"); // warms the server's routes
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of PAGES) {
        for (const [way, load] of Object.entries(ways)) {
          const [s, b] = [treeCpuSeconds(app.process.pid!), treeCpuSeconds(server.process().pid!)];
          await load(path);
          const sum = spent.get(way)!;
          sum.server += treeCpuSeconds(app.process.pid!) - s;
          sum.browser += treeCpuSeconds(server.process().pid!) - b;
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
      `  ${way.padEnd(12)} server ${per(t.server)}  browser ${per(t.browser)}  both ${per(t.server + t.browser)}`,
    );
  }
  const [onNew, onKept] = [...spent.values()].map((t) => t.server + t.browser);
  console.log(`a load on a kept page costs ${(onKept! / onNew!).toFixed(2)} of one on a new page`);
}

void main();
