/**
 * What an axe scan of a page with a desk's records costs the browser with every rule, and with
 * the rules that can never fail a scan turned off (those of minor or moderate impact,
 * test/support/axe-rules.ts), and with those off and the colour rules reading one table row of
 * each look (test/support/axe-repeats.ts): the visits scan each role's pages this last way. Each
 * round loads each page once as an admin at 1280 px and scans it each way, taking turns which
 * goes first; every way must find the same serious and critical violations.
 *
 *   npm run build && npm run bench:axe
 */
import { createRequire } from "node:module";
import { chromium, type Page } from "playwright-core";
import { markRepeatedRows, REPEAT_MARK, skipRepeatsInColourRules, unmarkRepeatedRows } from "../support/axe-repeats";
import { axeRules, COLOUR_RULES, rulesBelowSerious } from "../support/axe-rules";
import { signIn, startApp } from "../support/app-server";
import { CHROMIUM_ARGS, chromiumPath } from "../support/chromium";
import { seedDesk } from "../support/desk-seed";
import { treeCpuSeconds } from "./machine";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PAGES = ["/orders", "/transfers", "/activity", "/approvals", "/batches", "/policies"];
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const OFF = Object.fromEntries(rulesBelowSerious(axeRules()).map((id) => [id, { enabled: false }]));
/** The rules each way turns off, and whether the colour rules read one table row of each look. */
const WAYS = {
  "every rule": { rules: {}, repeats: false },
  "the serious-capable rules": { rules: OFF, repeats: false },
  "and one row of each look": { rules: OFF, repeats: true },
} as const;
type Way = keyof typeof WAYS;

/** The scan's serious and critical violations, by rule id. */
async function scan(page: Page, { rules, repeats }: { rules: object; repeats: boolean }) {
  // Without marks the colour rules read every row (test/support/axe-repeats.ts).
  if (repeats) await page.evaluate(markRepeatedRows, REPEAT_MARK);
  const found = await page.evaluate(async (rules) => {
    const axe = (
      window as unknown as {
        axe: { run: (c: object, o: object) => Promise<{ violations: { id: string; impact: string }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ["violations"], rules });
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  }, rules);
  if (repeats) await page.evaluate(unmarkRepeatedRows, REPEAT_MARK);
  return found;
}

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
        await page.evaluate(skipRepeatsInColourRules, { rules: COLOUR_RULES, mark: REPEAT_MARK });
        await scan(page, WAYS["every rule"]); // the first scan reads the page's style sheets
        const found: string[][] = [];
        const ways = (Object.keys(WAYS) as Way[])[round % 2 ? "reverse" : "slice"]();
        for (const way of ways) {
          const [cpu, wall] = [treeCpuSeconds(server.process().pid!), performance.now()];
          found.push(await scan(page, WAYS[way]));
          const sum = spent.get(way)!;
          sum.cpu += treeCpuSeconds(server.process().pid!) - cpu;
          sum.wall += (performance.now() - wall) / 1000;
        }
        if (new Set(found.map((ids) => ids.join())).size > 1) throw new Error(`${path}: ${found.join(" against ")}`);
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
  const [all, serious, once] = [...spent.values()];
  console.log(
    `with ${Object.keys(OFF).length} rules off: ${(serious!.cpu / all!.cpu).toFixed(2)} of the CPU, ${(serious!.wall / all!.wall).toFixed(2)} of the time`,
  );
  console.log(
    `and the colour rules on one row of each look: ${(once!.cpu / serious!.cpu).toFixed(2)} of that CPU, ${(once!.wall / serious!.wall).toFixed(2)} of its time`,
  );
}

void main();
