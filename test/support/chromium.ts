/**
 * How the tests start Chromium: Debian's headless shell (or CHROMIUM_PATH), Chromium's Blink
 * without the full browser's windowing, as Playwright itself runs headless. The browser tests
 * took 0.64 of the time they took with /usr/bin/chromium (e2e project, 5m16s against 8m17s).
 */
export const chromiumPath = () => process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

/**
 * A test's page lives seconds: V8's optimizing compilers (Maglev, TurboFan) spend more on it
 * than they win back. Up to Sparkplug, its baseline compiler, a page's load and axe scans cost
 * about 0.8 of the CPU (test/bench/browser-tiers.ts). The tiers change how fast JavaScript runs,
 * never what it does.
 */
export const JS_TIERS = "--js-flags=--max-opt=1";

/** Headless, with no network of its own beyond loopback. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  JS_TIERS,
];
