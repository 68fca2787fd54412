import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Download,
  type Locator,
  type Page,
  type Request,
} from "playwright-core";
import { expect, inject, onTestFinished } from "vitest";
import { signIn, TEST_PASSWORD } from "./app-server";
import { markRepeatedRows, REPEAT_MARK, skipRepeatsInColourRules, unmarkRepeatedRows } from "./axe-repeats";
import { axeRules, COLOUR_RULES, rulesBelowSerious } from "./axe-rules";
import { CHROMIUM_ARGS, chromiumPath } from "./chromium";
import { fileLane } from "./shared-app";

/**
 * A browser for this file: its lane's Chromium of the run (test/support/browsers.ts, the e2e
 * project's), or one of its own elsewhere. Closing it closes this file's connection only.
 */
export function launchBrowser(): Promise<Browser> {
  const provided = inject("browsers");
  if (Array.isArray(provided)) return chromium.connect(provided[fileLane() ?? 0]!);
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

/** Signs in through the sign-in page, as a person would: for the tests of that page. */
export async function signInWithForm(page: Page, base: string, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/orders$/);
}

/**
 * Signs a browser context in: the request the sign-in page's form makes, sent from here, its
 * session cookie given to the context. A fresh session each time, a second quicker than filling
 * the form; the form itself is tested with signInWithForm.
 */
export async function signInContext(
  context: BrowserContext,
  base: string,
  email: string,
  password = TEST_PASSWORD,
): Promise<void> {
  const session = await signIn({ url: base }, email, password);
  expect(session.signedIn, `${email} signs in`).toBe(true);
  await context.addCookies(session.browserCookies());
}

/** Signs the page's browser context in (signInContext) and opens /orders (or `path`), hydrated. */
export async function signInAs(
  page: Page,
  base: string,
  email: string,
  password = TEST_PASSWORD,
  path = "/orders",
): Promise<void> {
  await signInContext(page.context(), base, email, password);
  watchRefusals(page);
  await page.goto(`${base}${path}`);
  // Signed in: not sent back to /signin.
  expect(new URL(page.url()).pathname, `${email} opens ${path}`).toBe(new URL(path, base).pathname);
  await hydrated(page);
}

/**
 * Opens a page of the dashboard from the header's navigation, as a person would at the page's
 * width: on a phone the pages are behind the Menu button (components/shell/page-menu.tsx).
 */
export async function openFromNav(page: Page, name: string | RegExp): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = nav.getByRole("button", { name: /^Menu/ });
  try {
    if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
    await nav.getByRole("link", { name }).click();
  } catch (error) {
    throw withRefusals(page, error);
  }
}

/** Per page signed in by signInAs: each request of the dashboard's that answered 401, as "METHOD path". */
const refusals = new WeakMap<Page, string[]>();

/**
 * Notes the page's requests that answer 401: any one of them sends a signed-in page to /signin
 * (lib/client/api.ts), and a step that then fails should say which.
 */
function watchRefusals(page: Page): void {
  if (refusals.has(page)) return;
  const seen: string[] = [];
  refusals.set(page, seen);
  page.on("response", (response) => {
    if (response.status() === 401) seen.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  });
}

/** `error`, with the requests that answered the page 401 (watchRefusals) when there were any. */
function withRefusals(page: Page, error: unknown): unknown {
  const seen = refusals.get(page) ?? [];
  if (!(error instanceof Error) || seen.length === 0) return error;
  error.message += `\nRequests the dashboard answered 401 on this page: ${seen.join(", ")}`;
  return error;
}

/** Waits until the shell has hydrated: its header's buttons answer clicks from then on. */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('[data-testid="live-status"][data-hydrated="true"]').waitFor({ state: "attached" });
}

/**
 * A page of its own browser context (own cookies; keptPage), `width` wide, signed in as `email`,
 * at `path` (/orders unless told): a test of another page opens it at once, not after a load of
 * /orders it never looks at.
 */
export async function signedIn(
  browser: Browser,
  base: string,
  email: string,
  width: number = WIDTHS.desk,
  height = 1000,
  path = "/orders",
): Promise<Page> {
  const page = await keptPage(browser, { width, height });
  await signInAs(page, base, email, TEST_PASSWORD, path);
  return page;
}

/** A page the file keeps for its next tests (keptPage), and whether it is lent now. */
interface Kept {
  page: Page;
  viewport: { width: number; height: number };
  lent: boolean;
  /** Changed in a way no reset undoes (a clock, a route, an init script): closed when given back. */
  changed: boolean;
  /** Closes its context for good (its own close() gives it back). */
  closeForGood: () => Promise<void>;
  /** Playwright's own listeners on the page and its context, there before any test's. */
  listeners: { page: Listeners; context: Listeners };
}

/** Playwright's pages and contexts are event emitters beyond what their types declare. */
type Emitter = Pick<NodeJS.EventEmitter, "eventNames" | "listeners" | "off">;
type Listeners = Map<string | symbol, Set<unknown>>;
const emitter = (of: Page | BrowserContext) => of as unknown as Emitter;
const listenersOf = (of: Page | BrowserContext): Listeners => {
  const e = emitter(of);
  return new Map(e.eventNames().map((name) => [name, new Set(e.listeners(name))]));
};

/**
 * Takes off the listeners added since `before`: a test's. Not removeAllListeners(): the context
 * listens to itself, and without its own listeners a route set on a kept page never answered.
 */
function dropListenersSince(of: Page | BrowserContext, before: Listeners): void {
  const e = emitter(of);
  for (const name of e.eventNames())
    for (const listener of e.listeners(name)) if (!before.get(name)?.has(listener)) e.off(name, listener as () => void);
}
const kept = new WeakMap<Browser, Kept[]>();

/** What a test may do to its page or context that giving it back cannot undo. */
const LASTING = {
  // A route's handler may still hold a request of its test's: a routed page is not kept either.
  page: ["addInitScript", "exposeFunction", "exposeBinding", "setExtraHTTPHeaders", "setDefaultTimeout", "route"],
  context: ["addInitScript", "exposeFunction", "exposeBinding", "setExtraHTTPHeaders", "grantPermissions", "route"],
  clock: ["install", "pauseAt", "setFixedTime", "setSystemTime"],
} as const;

/**
 * A page of its own browser context (its own cookies) at `viewport`, lent to the test until it
 * ends or closes the page or its context, then kept for the file's next test that asks for the
 * same size: a new page costs Chromium a renderer process and the dashboard's scripts compiled
 * again, and a kept one is blanked instead: a load on it costs 0.73 to 0.78 of one on a new page,
 * the server's CPU and the browser's (npm run bench:page-reuse). Given back, it has no listeners or cookies, its storage is empty and it shows
 * about:blank in the light theme at its size, as a new page would; one given a clock, a route or
 * an init script is closed instead. The file's `browser.close()` closes them all.
 */
export async function keptPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const pages = kept.get(browser) ?? [];
  kept.set(browser, pages);
  const same = (k: Kept) => k.viewport.width === viewport.width && k.viewport.height === viewport.height;
  const k = pages.find((k) => !k.lent && same(k)) ?? (await keep(pages, browser, viewport));
  k.lent = true;
  try {
    onTestFinished(() => giveBack(pages, k));
  } catch {
    // Lent outside a test (a beforeAll): until the file closes it.
  }
  return k.page;
}

/**
 * A new page for the file to keep: watched for lasting changes, its page's and context's close()
 * turned into giving it back.
 */
async function keep(pages: Kept[], browser: Browser, viewport: Kept["viewport"]): Promise<Kept> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const k: Kept = {
    page,
    viewport,
    lent: false,
    changed: false,
    closeForGood: context.close.bind(context),
    listeners: { page: listenersOf(page), context: listenersOf(context) },
  };
  const marking = (target: object, names: readonly string[]) => {
    for (const name of names) {
      const own = (target as Record<string, (...args: unknown[]) => unknown>)[name]!.bind(target);
      Object.assign(target, { [name]: (...args: unknown[]) => ((k.changed = true), own(...args)) });
    }
  };
  marking(page, LASTING.page);
  marking(context, LASTING.context);
  marking(page.clock, LASTING.clock);
  Object.assign(page, { close: () => giveBack(pages, k) });
  Object.assign(context, { close: () => giveBack(pages, k) });
  pages.push(k);
  return k;
}

/** Takes the page back from its test: reset as a new one, or closed when it cannot be. */
async function giveBack(pages: Kept[], k: Kept): Promise<void> {
  if (!k.lent) return;
  const reusable =
    !k.changed &&
    !k.page.isClosed() &&
    (await reset(k).then(
      () => true,
      () => false,
    ));
  if (reusable) {
    k.lent = false;
    return;
  }
  pages.splice(pages.indexOf(k), 1);
  await k.closeForGood().catch(() => undefined);
}

/** The page as a new one would be: blank, light, its size, no cookies, storage or test's listeners. */
async function reset({ page, viewport, listeners }: Kept): Promise<void> {
  const context = page.context();
  dropListenersSince(page, listeners.page);
  dropListenersSince(context, listeners.context);
  refusals.delete(page);
  // Any other page it opened (none does yet) goes: a new page's context has one.
  for (const other of context.pages()) if (other !== page) await other.close();
  // Only a page of the dashboard has its storage to empty; about:blank has none.
  await page.evaluate(() => (localStorage.clear(), sessionStorage.clear())).catch(() => undefined);
  await page.goto("about:blank");
  await context.clearCookies();
  await page.emulateMedia({
    media: "screen",
    colorScheme: "light",
    reducedMotion: "no-preference",
    forcedColors: "none",
  });
  const size = page.viewportSize();
  if (size?.width !== viewport.width || size?.height !== viewport.height) await page.setViewportSize(viewport);
}

/** expect.poll with room for a loaded 2-core machine: 15 s unless told. */
export const poll = <T>(probe: () => T | Promise<T>, options: { timeout?: number; message?: string } = {}) =>
  expect.poll(probe, { timeout: 15_000, ...options });

/**
 * Waits until a review's send button acts: it ignores activation for REVIEW_ARMING_MS after it
 * appears, and says so with data-armed (components/forms/review-panel.tsx).
 */
export async function armed(button: Locator): Promise<Locator> {
  await poll(() => button.getAttribute("data-armed")).toBe("true");
  return button;
}

/**
 * Resolves once the page has drawn two frames: whatever a key or click just did (React renders
 * within a frame) is on screen, so "nothing happened" can be asserted without a fixed wait.
 */
export function afterNextFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/**
 * Waits until the page has settled: hydrated, its live stream up (the stream is a chunk loaded
 * after the page's first script), none of its queries fetching (components/shell/live-updates.tsx),
 * and every field and button taken over by React. A lazily loaded part (components/lazy-tables.tsx)
 * is drawn on the server and hydrates when its chunk arrives, which a loaded machine may bring
 * after the stream is up; until then it has no queries to count, and what is typed into its
 * fields is replaced when it hydrates.
 */
export async function settled(page: Page): Promise<void> {
  await poll(() => page.evaluate(settledState), {
    message: "the page settles: stream up, nothing fetching, every control hydrated",
  }).toEqual({
    stream: "up",
    fetching: "0",
    notHydrated: 0,
  });
}

/** In the page: the live status's stream and fetching count, and how many controls React has not taken over. */
function settledState() {
  const status = document.querySelector<HTMLElement>("[data-testid=live-status]");
  const controls = [...document.querySelectorAll("input, select, textarea, button")];
  return {
    stream: status?.dataset.status,
    fetching: status?.dataset.fetching,
    notHydrated: controls.filter((c) => !Object.keys(c).some((k) => k.startsWith("__reactFiber"))).length,
  };
}

/** Every request the page sends that would change something. */
export function watchWrites(page: Page): { writes: () => string[] } {
  const seen: string[] = [];
  const onRequest = (r: Request) => {
    if (r.method() !== "GET" && r.url().includes("/api/v2/")) seen.push(`${r.method()} ${new URL(r.url()).pathname}`);
  };
  page.on("request", onRequest);
  return { writes: () => [...seen] };
}

const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
/**
 * Off in a scan of every rule: those of minor or moderate impact, which can never fail one
 * (test/support/axe-rules.ts). A scan takes 0.89 of the CPU without them (npm run bench:axe).
 */
const NEVER_FAILING = Object.fromEntries(rulesBelowSerious(axeRules()).map((id) => [id, { enabled: false }]));

/**
 * axe-core's serious and critical violations on the page as it is now, one line each (none: []).
 * `rules` runs only those (after an in-place theme switch only the colours changed: the colour
 * rules are what can answer differently); `within` scans only what its selectors match (and
 * what is inside), in one scan: a scan first reads the whole page's tree, however little it is
 * limited to (1.7 s a scan on the API docs page). The details are gathered for the violations
 * alone, which spares a large page seconds, and the rules that can never fail a scan are off.
 * The colour rules read one table row of each look (test/support/axe-repeats.ts): a scan of a
 * desk's pages costs 0.76 of the CPU, and every other rule still reads every row.
 */
export async function axeViolations(
  page: Page,
  { rules, within }: { rules?: string[]; within?: string | string[] } = {},
): Promise<string[]> {
  // Once per document: a scan again after a theme switch reuses it.
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.addScriptTag({ path: axeSource });
    await page.evaluate(skipRepeatsInColourRules, { rules: COLOUR_RULES, mark: REPEAT_MARK });
  }
  await page.evaluate(markRepeatedRows, REPEAT_MARK);
  try {
    return await scanned(page, rules, within);
  } finally {
    // A page closed meanwhile has no marks left to take off; the scan's own error is the one to see.
    await page.evaluate(unmarkRepeatedRows, REPEAT_MARK).catch(() => undefined);
  }
}

/** axe's serious and critical violations on `page`, each as "impact rule: help (targets)". */
function scanned(page: Page, rules: string[] | undefined, within: string | string[] | undefined): Promise<string[]> {
  return page.evaluate(
    async ({ rules, within, off }) => {
      const result = await (
        window as unknown as {
          axe: {
            run: (
              context: object,
              options: object,
            ) => Promise<{
              violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
            }>;
          };
        }
      ).axe.run(within ? { include: [within].flat().map((selector) => [selector]) } : document, {
        resultTypes: ["violations"],
        ...(rules ? { runOnly: { type: "rule", values: rules } } : { rules: off }),
      });
      return result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map(
          (v) =>
            `${v.impact} ${v.id}: ${v.help} (${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join("; ")})`,
        );
    },
    { rules, within, off: NEVER_FAILING },
  );
}

/**
 * Until the page's colours have finished changing (after a theme switch): buttons ease theirs
 * (transition-colors), and axe reads them as they are.
 */
export function coloursChanged(page: Page): Promise<unknown> {
  return page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** axe-core on the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  expect(await axeViolations(page), `accessibility of ${what}`).toEqual([]);
}

/**
 * A download's text, streamed from the browser: the run's Chromium is connected to, not launched
 * here, so the file it saved has no path on this side.
 */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The widths the desk's screens are tried at: a wide desk monitor, a laptop, a phone. */
export const WIDTHS = { desk: 1440, laptop: 1280, phone: 390 } as const;

/**
 * The widths a screen's layout is tried at: 1280 is the narrowest with the desk's layout
 * (Tailwind's xl; a 1440 monitor gets the same layout with more room), 390 a phone.
 */
export const LAYOUT_WIDTHS: [keyof typeof WIDTHS, number][] = [
  ["laptop", WIDTHS.laptop],
  ["phone", WIDTHS.phone],
];

/**
 * A full-page screenshot in test-results/screenshots, for a person to look at, when the run asks
 * for them (SCREENSHOTS=1); the path is printed so it can be found in the test output. Otherwise
 * it does nothing and answers undefined: a screenshot asserts nothing, and a full page's costs
 * a loaded machine a second or more.
 */
export async function screenshot(page: Page, name: string): Promise<string | undefined> {
  if (process.env.SCREENSHOTS !== "1") return undefined;
  const file = join("test-results", "screenshots", `${name.replace(/[^\w.-]+/g, "-")}.png`);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  console.info(`screenshot: ${file}`);
  return file;
}

/** How wide the page's content is against its window: wider means it scrolls sideways. */
export function pageWidths(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/** True when nothing on the page makes it scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await pageWidths(page);
  expect(scrollWidth, `${what} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/**
 * Records the page's layout shifts from the start of each document it loads (an init script,
 * so it runs before the page's own): read them with layoutShiftSoFar.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript({
    content: `
      window.__shifts = [];
      window.__shiftObserver = new PerformanceObserver((list) => window.__shifts.push(...list.getEntries()));
      window.__shiftObserver.observe({ type: "layout-shift", buffered: true });
    `,
  });
}

/**
 * The layout shifts of this document so far (after two more frames) not caused by the person:
 * their sum, and what moved in each.
 */
export function layoutShiftSoFar(page: Page): Promise<{ sum: number; moved: string[] }> {
  return page.evaluate(async () => {
    const w = window as unknown as {
      __shifts: (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      })[];
      __shiftObserver: PerformanceObserver;
    };
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    w.__shifts.push(...(w.__shiftObserver.takeRecords() as typeof w.__shifts));
    const counted = w.__shifts.filter((s) => !s.hadRecentInput);
    return {
      sum: counted.reduce((total, s) => total + s.value, 0),
      moved: counted.map(
        (s) =>
          `${s.value.toFixed(4)} at ${Math.round(s.startTime)} ms: ${s.sources
            .map(
              (x) =>
                `${(x.node as HTMLElement | undefined)?.outerHTML?.slice(0, 80) ?? "?"} (top ${Math.round(x.previousRect.top)} → ${Math.round(x.currentRect.top)}, height ${Math.round(x.previousRect.height)} → ${Math.round(x.currentRect.height)})`,
            )
            .join(" | ")}`,
      ),
    };
  });
}
