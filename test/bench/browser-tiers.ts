/**
 * What V8's optimizing tiers cost the browser tests: Chromium's CPU for one page visit (load,
 * hydrate, settle) and the axe scans a visit makes (all rules, then the colour rules again), with
 * the tests' arguments against the same without JS_TIERS (test/support/chromium.ts). The two
 * browsers take turns, ROUNDS times, against one built app with the market maker quoting, so a
 * busy moment of the machine falls on both.
 *
 *   npm run build && npm run bench:browser
 */
import { createRequire } from "node:module";
import { chromium, type Page } from "playwright-core";
import { startApp, TEST_PASSWORD } from "../support/app-server";
import { CHROMIUM_ARGS, chromiumPath, JS_TIERS } from "../support/chromium";
import { treeCpuSeconds } from "./machine";

const ROUNDS = 3;
const PAGES = ["/orders", "/transfers", "/activity", "/approvals", "/balances", "/policies"];
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const settled = (page: Page) =>
  page.waitForFunction(
    () => {
      const s = document.querySelector<HTMLElement>("[data-testid=live-status]");
      const whole = document.querySelectorAll("main div.animate-pulse").length === 0;
      return whole && s?.dataset.hydrated === "true" && s.dataset.status === "up" && s.dataset.fetching === "0";
    },
    undefined,
    { polling: 50 },
  );

const axe = (page: Page, rules?: string[]) =>
  page.evaluate(async (rules) => {
    const run = (window as unknown as { axe: { run: (c: object, o: object) => Promise<unknown> } }).axe.run;
    await run(document, {
      resultTypes: ["violations"],
      ...(rules ? { runOnly: { type: "rule", values: rules } } : {}),
    });
  }, rules);

/** One browser's CPU seconds per visit: the load, the full scan, the colour scan. */
async function visits(url: string, args: string[]) {
  const server = await chromium.launchServer({ executablePath: chromiumPath(), args });
  const pid = server.process().pid!;
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${url}/signin`);
    await page.getByLabel("Email").fill("admin@example.com");
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/orders$/);
    const spent = { load: 0, axe: 0, colour: 0 };
    const measure = async (part: keyof typeof spent, work: () => Promise<unknown>) => {
      const before = treeCpuSeconds(pid);
      await work();
      spent[part] += (treeCpuSeconds(pid) - before) / PAGES.length;
    };
    for (const path of PAGES) {
      await measure("load", async () => {
        await page.goto(`${url}${path}`);
        await settled(page);
      });
      await page.addScriptTag({ path: axeSource });
      await measure("axe", () => axe(page));
      await measure("colour", () => axe(page, COLOUR_RULES));
    }
    return spent;
  } finally {
    await browser.close();
    await server.close();
  }
}

async function main() {
  const app = await startApp({ SANDBOX_MARKET_MAKER: "on" });
  const variants = { "all tiers": CHROMIUM_ARGS.filter((a) => a !== JS_TIERS), "the tests' (JS_TIERS)": CHROMIUM_ARGS };
  const totals = new Map<string, { load: number; axe: number; colour: number }>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of Object.entries(variants)) {
        const spent = await visits(app.url, args);
        const sum = totals.get(name) ?? { load: 0, axe: 0, colour: 0 };
        totals.set(name, { load: sum.load + spent.load, axe: sum.axe + spent.axe, colour: sum.colour + spent.colour });
      }
    }
  } finally {
    await app.dispose();
  }
  console.log(`Chromium CPU seconds per visit (${PAGES.length} pages as an admin at 1280 px, ${ROUNDS} rounds):`);
  const visit = (t: { load: number; axe: number; colour: number }) => t.load + t.axe + t.colour;
  for (const [name, t] of totals) {
    const per = (n: number) => (n / ROUNDS).toFixed(2);
    console.log(
      `  ${name.padEnd(24)} load ${per(t.load)}  axe ${per(t.axe)}  colours ${per(t.colour)}  visit ${per(visit(t))}`,
    );
  }
  const [all, tests] = [...totals.values()];
  console.log(`the tests' visit costs ${(visit(tests!) / visit(all!)).toFixed(2)} of one with all tiers`);
}

void main();
