/**
 * What an axe scan of a page with a desk's records costs the browser with every rule, and with
 * the rules that can never fail a scan turned off (those of minor or moderate impact,
 * test/support/axe-rules.ts): the visits scan each role's pages this way. Each round loads each
 * page once as an admin at 1280 px and scans it both ways, taking turns which goes first; both
 * ways must find the same serious and critical violations.
 *
 *   npm run build && npm run bench:axe
 */
import { createRequire } from "node:module";
import { chromium, type Page } from "playwright-core";
import { axeRules, rulesBelowSerious } from "../support/axe-rules";
import { signIn, startApp } from "../support/app-server";
import { CHROMIUM_ARGS, chromiumPath } from "../support/chromium";
import { seedDesk } from "../support/desk-seed";
import { treeCpuSeconds } from "./machine";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PAGES = ["/orders", "/transfers", "/activity", "/approvals", "/batches", "/policies"];
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const OFF = Object.fromEntries(rulesBelowSerious(axeRules()).map((id) => [id, { enabled: false }]));
const WAYS = { "every rule": {}, "the serious-capable rules": OFF } as const;
type Way = keyof typeof WAYS;

/** The scan's serious and critical violations, by rule id. */
const scan = (page: Page, rules: object) =>
  page.evaluate(async (rules) => {
    const axe = (
      window as unknown as {
        axe: { run: (c: object, o: object) => Promise<{ violations: { id: string; impact: string }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ["violations"], rules });
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  }, rules);

async function main() {
  const app = await startApp({ SANDBOX_MARKET_MAKER: "on" });
  const server = await chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const browser = await chromium.connect(server.wsEndpoint());
  const spent = new Map<Way, { cpu: number; wall: number }>(
    (Object.keys(WAYS) as Way[]).map((way) => [way, { cpu: 0, wall: 0 }]),
  );
  try {
    await seedDesk(app);
    const session = await signIn(app, "admin@example.com");
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of PAGES) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies(session.browserCookies());
        const page = await context.newPage();
        await page.goto(`${app.url}${path}`, { waitUntil: "networkidle" });
        await page.addScriptTag({ path: axeSource });
        await scan(page, {}); // the first scan reads the page's style sheets
        const found: string[][] = [];
        const ways = (Object.keys(WAYS) as Way[])[round % 2 ? "reverse" : "slice"]();
        for (const way of ways) {
          const [cpu, wall] = [treeCpuSeconds(server.process().pid!), performance.now()];
          found.push(await scan(page, WAYS[way]));
          const sum = spent.get(way)!;
          sum.cpu += treeCpuSeconds(server.process().pid!) - cpu;
          sum.wall += (performance.now() - wall) / 1000;
        }
        if (found[0]!.join() !== found[1]!.join()) throw new Error(`${path}: ${found[0]} against ${found[1]}`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await app.dispose();
  }
  const scans = ROUNDS * PAGES.length;
  console.log(`An axe scan (${PAGES.join(", ")} with a desk's records; ${ROUNDS} rounds; admin at 1280 px):`);
  for (const [way, t] of spent) {
    console.log(`  ${way.padEnd(26)} browser ${(t.cpu / scans).toFixed(3)} CPU-s  ${(t.wall / scans).toFixed(3)} s`);
  }
  const [all, serious] = [...spent.values()];
  console.log(
    `with ${Object.keys(OFF).length} rules off: ${(serious!.cpu / all!.cpu).toFixed(2)} of the CPU, ${(serious!.wall / all!.wall).toFixed(2)} of the time`,
  );
}

void main();
