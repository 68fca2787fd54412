import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  afterNextFrames,
  axeViolations,
  coloursChanged,
  expectAccessible,
  launchBrowser,
  layoutShiftSoFar,
  pageWidths,
  recordLayoutShifts,
  screenshot,
  signInContext,
  WIDTHS,
} from "../support/browser";
import { COLOUR_RULES } from "../support/axe-rules";
import { ungroupedOnPage, UNGROUPED_NUMBER } from "../support/number-scan";
import { seedDesk } from "../support/desk-seed";
import { SETTLEMENT, TREASURY } from "../support/requests";
import { signIn } from "../support/app-server";
import { resetApp } from "../support/shared-app";
import { addDecimal, amountIfSet } from "@/lib/spec/decimal";

/**
 * Every page each role opens, at each width it is tried at, visited once: that one visit
 * collects what every check of a page needs, and each check is its own test reading it, so a
 * failure names the check, the page, the role and the width.
 *
 * - No page error while the page loads and hydrates: a hydration mismatch makes React throw the
 *   server's HTML away and draw the page again (minified React error #418 in a production build),
 *   losing a keystroke or a click made meanwhile.
 * - The page does not move as its parts arrive: every layout shift from the first paint until
 *   the last placeholder is replaced, summed, stays under 0.05 (a "good" Cumulative Layout Shift
 *   is under 0.1).
 * - No sideways scroll of the page; at a laptop's 1280 px, each table shows the record's
 *   identity, amount, status and action without scrolling sideways (issue 20, "tables that fit"),
 *   every row's whole and none under a sticky column, with a desk's worth of records (issue 26).
 * - axe-core finds no serious or critical violation, in the light theme and again in the dark,
 *   switched in place as a system does; the dark background is the dark theme's. An admin at
 *   1280 px also scans each page with light chosen in the header against the dark system, and
 *   the pages with sections (the ticket's, the form's) with them open.
 * - /orders: the market view fits the room kept for it beside the ticket; Treasury's balances fit
 *   the market panel under it; the orders table's Filled column is whole.
 *
 * The market maker quotes, so the orders page's ladder and chart have something to draw.
 * Screenshots (light and dark) are taken only when the run asks for them (SCREENSHOTS=1).
 */

type Role = "viewer" | "trader" | "ops" | "approver" | "admin";
const { laptop: LAPTOP, phone: PHONE } = WIDTHS;
/** A laptop's screen, and a phone's. */
const HEIGHT: Record<number, number> = { [LAPTOP]: 800, [PHONE]: 844 };

/** A TWAP parent order's page (issue 29), for the parent the desk's trader places in beforeAll. */
const PARENT_PAGE = "/parent-orders/{parent}";
/** The parent's id, once placed. */
let parentId = "";
/** A page's path as the browser opens it: the parent's page with the parent's id. */
const pathOf = (path: string) => path.replace("{parent}", parentId);

const ALL_PAGES = [
  "/orders",
  "/transfers",
  "/batches",
  "/activity",
  "/activity?view=audit",
  "/approvals",
  "/policies",
  "/balances",
  "/sessions",
  "/tokens",
  "/notifications",
  "/webhooks",
  PARENT_PAGE,
];

/**
 * What each role opens at each width, as the desk does: the union of what the page checks
 * visited before they shared one visit (hydration, layout shift, axe in both themes, table fit,
 * the phone's dark screenshots).
 */
const GROUPS: { role: Role | null; width: number; paths: string[] }[] = [
  { role: "admin", width: LAPTOP, paths: ALL_PAGES },
  { role: "admin", width: PHONE, paths: ALL_PAGES },
  { role: "trader", width: LAPTOP, paths: ["/orders", "/transfers", "/activity", "/balances", PARENT_PAGE] },
  { role: "approver", width: LAPTOP, paths: ["/approvals", "/orders", "/transfers", "/activity"] },
  { role: "ops", width: LAPTOP, paths: ["/orders", "/transfers", "/batches", "/activity"] },
  // A viewer's /tokens offers the scopes a viewer cannot use disabled, each with why. /api-docs is
  // the same for every role and width (its own test covers the phone): one visit here.
  {
    role: "viewer",
    width: LAPTOP,
    paths: ["/orders", "/transfers", "/batches", "/activity", "/tokens", "/notifications", "/api-docs", PARENT_PAGE],
  },
  { role: "trader", width: PHONE, paths: ["/orders"] },
  // A reader's /orders differs: the orders first on a wide screen, the market first on a phone.
  { role: "viewer", width: PHONE, paths: ["/orders"] },
  // Signed out: the sign-in page.
  { role: null, width: LAPTOP, paths: ["/signin"] },
];

/** The table a page lists its records in, measured at the laptop's width. */
const TABLE_OF: Record<string, string> = {
  "/orders": "Orders",
  "/batches": "Batches, newest first",
  "/transfers": "Transfers, one row per transfer with its legs below",
  "/activity": "Activity: requests sent from the dashboard",
  "/activity?view=audit": "Audit trail: every event, newest first",
};

/** The roles whose /orders has the ticket, and the market view in the room kept beside it. */
const TICKET_ROLES: (Role | null)[] = ["trader", "admin"];

/** An admin at the laptop's width also opens these pages' sections (the ticket's, the form's) and scans them open. */
const SECTIONS_OPENED = ["/orders", "/transfers", "/activity"];

/** The page's background, surface-sunken in app/globals.css. */
const LIGHT_BACKGROUND = "rgb(241, 245, 249)";
const DARK_BACKGROUND = "rgb(2, 6, 23)";
const SHIFT_LIMIT = 0.05;

/** What one visit saw; a check it did not get to reads `stopped`. */
interface Seen {
  /** Where the visit stopped and why, if it did not get through. */
  stopped?: string;
  errors: string[];
  shift?: { sum: number; moved: string[] };
  widths?: { light: { scrollWidth: number; innerWidth: number }; dark?: { scrollWidth: number; innerWidth: number } };
  table?: { scrollWidth: number; clientWidth: number; hint: boolean };
  /** Each row's identity, amount, status or action cell not whole in view, or under a sticky column. */
  cut?: string[];
  filledCut?: number;
  /** Where the orders table's first row ends, at the top of the page, against the window's height. */
  firstRow?: { bottom: number; fold: number };
  marketRoom?: { content: number; room: number };
  /** A reader's orders on a phone: their top with the market watch above them, and with it gone. */
  ordersPlace?: { withMarket: number; withoutMarket: number; marketBottom: number };
  panelSpills?: number;
  /** Numbers of the page's text written without the formatter's grouping (test/support/number-scan.ts). */
  unformatted?: string[];
  axe: { light?: string[]; sectionsOpen?: string[]; dark?: string[]; chosenLight?: string[] };
  theme?: { htmlClass: string; light: string; dark?: string };
  chosenLight?: { htmlClass: string; background: string };
}

let app: { url: string };
let browser: Browser;

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const htmlClass = (page: Page) => page.evaluate(() => document.documentElement.className);
const slug = (path: string) => path.slice(1).replace(/\W+/g, "-");

/**
 * Waits until `probe`, run in the page, answers true. The visits run outside any one test (all
 * the checks of a page read one visit), so they wait with the browser's own polling rather than
 * expect.poll, which belongs to a test.
 */
async function until(page: Page, what: string, probe: () => boolean): Promise<void> {
  try {
    await page.waitForFunction(probe, undefined, { timeout: 20_000, polling: 50 });
  } catch (error) {
    throw new Error(`${what}: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  }
}

/** Until the page is whole: its queries answered, its lazily loaded parts in, no placeholder left. */
async function untilWhole(page: Page, role: Role | null, path: string, width: number): Promise<void> {
  if (path === "/signin") {
    // No shell here: the form is hydrated once React has taken over its element.
    return until(page, "the sign-in form hydrates", () =>
      Object.keys(document.querySelector("form") ?? {}).some((k) => k.startsWith("__reactFiber")),
    );
  }
  if (path === "/orders") {
    await until(
      page,
      "the ladder's bids",
      () => document.querySelectorAll("[data-testid=depth-ladder] tr[data-side=bid]").length > 0,
    );
    await until(page, "the chart", () => document.querySelectorAll("[data-testid=price-chart] canvas").length > 0);
    if (TICKET_ROLES.includes(role)) {
      // A profile to choose besides the placeholder.
      await page
        .getByRole("form", { name: "Order ticket" })
        .getByLabel("Profile", { exact: true })
        .locator("option")
        .nth(1)
        .waitFor({ state: "attached", timeout: 20_000 });
    }
  }
  if (path === "/balances") {
    await until(page, "the balances' USD total", () => {
      const total = document.querySelector("[data-testid=usd-total]")?.textContent;
      return Boolean(total && !total.includes("…"));
    });
    await page.getByRole("table", { name: "Balances of Treasury" }).waitFor({ timeout: 20_000 });
  }
  if (path === PARENT_PAGE) {
    await until(
      page,
      "the parent's chart",
      () => document.querySelectorAll("[data-testid=parent-chart] canvas").length > 0,
    );
    await page.getByTestId("parent-order").locator("tr[data-row]").first().waitFor({ timeout: 20_000 });
  }
  if (path === "/approvals") await page.getByRole("tab", { name: "Waiting" }).waitFor({ timeout: 20_000 });
  if (path === "/policies") await page.getByRole("form", { name: "Policy" }).waitFor({ timeout: 20_000 });
  if (path === "/sessions") await page.locator("[data-row]").first().waitFor({ timeout: 20_000 });
  if (path === "/batches")
    await page.getByRole("table", { name: "Batches, newest first" }).waitFor({ timeout: 20_000 });
  // The form; its list is in once no placeholder is left (below).
  if (path === "/tokens") await page.getByRole("form", { name: "New API token" }).waitFor({ timeout: 20_000 });
  // The person's own setting, read in the browser: the box is there from the first paint, then enabled.
  if (path === "/notifications")
    await page.locator('main input[type=checkbox][data-loaded="true"]').waitFor({ timeout: 20_000 });
  // An admin's: the form, and the desk's webhook (beforeAll) in the list.
  if (path === "/webhooks") {
    await page.getByRole("form", { name: "New webhook" }).waitFor({ timeout: 20_000 });
    await page.getByRole("list", { name: "Webhooks" }).locator("li[data-row]").first().waitFor({ timeout: 20_000 });
  }
  // The reference, rendered on the server with the page: its title.
  if (path === "/api-docs")
    await page.getByRole("heading", { name: "Treasury dashboard API" }).waitFor({ timeout: 20_000 });
  if (TABLE_OF[path] && width === LAPTOP) {
    await tableOf(page, TABLE_OF[path]).locator("tr[data-row]").first().waitFor({ timeout: 20_000 });
    // Who sent each record, and who approved it, read from the journal: the widest line there is.
    await until(page, "who sent each record", () => !document.querySelector('main table [aria-label="Loading"]'));
  }
  await until(page, "no placeholder left", () => document.querySelectorAll("main div.animate-pulse").length === 0);
  await until(page, "nothing loading", () => !/Loading/.test(document.querySelector("main")?.innerText ?? ""));
  // Settled: hydrated, the live stream up (a chunk loaded after the page's first script), no query fetching.
  await until(page, "the page settles: stream up, nothing fetching", () => {
    const status = document.querySelector<HTMLElement>("[data-testid=live-status]");
    return status?.dataset.hydrated === "true" && status.dataset.status === "up" && status.dataset.fetching === "0";
  });
}

/**
 * In the page: how wide the table captioned `caption` is against its scroll box, and whether its
 * "scroll sideways" hint shows; with `agreeing`, false until the hint says what the widths do.
 */
function tableWidths({ caption, agreeing }: { caption: string; agreeing: boolean }) {
  const table = [...document.querySelectorAll("table")].find(
    (t) => t.querySelector("caption")?.textContent === caption,
  );
  const scroller = table?.closest<HTMLElement>("[data-table-scroller]");
  const hint = scroller?.parentElement?.querySelector<HTMLElement>(":scope > [data-testid=table-scroll-hint]");
  const seen = {
    scrollWidth: scroller?.scrollWidth ?? NaN,
    clientWidth: scroller?.clientWidth ?? NaN,
    hint: Boolean(hint && !hint.hidden && hint.offsetParent),
  };
  return !agreeing || seen.hint === seen.scrollWidth > seen.clientWidth ? seen : false;
}

/**
 * In the page: how the table captioned `caption` sits in its scroll box, and every row's
 * identity (first), amount, status or action (the column sticky on the right) cell that is not
 * whole in the box's visible width, or lies under a sticky column.
 */
function fitOf({ caption, amount, status }: { caption: string; amount: string; status: string }) {
  const table = [...document.querySelectorAll("table")].find((t) => t.caption?.textContent === caption)!;
  const scroller = table.closest<HTMLElement>("[data-table-scroller]")!;
  const left = scroller.getBoundingClientRect().left + scroller.clientLeft;
  const right = left + scroller.clientWidth;
  const cut: string[] = [];
  for (const row of table.querySelectorAll<HTMLTableRowElement>("tr[data-row]")) {
    const cells = [...row.cells];
    const stuck = (side: "left" | "right") =>
      cells.find((td) => getComputedStyle(td).position === "sticky" && getComputedStyle(td)[side] === "0px");
    const [stuckLeft, stuckRight] = [stuck("left"), stuck("right")];
    const named = {
      identity: cells[0],
      amount: cells.find((td) => td.dataset.label === amount),
      status: cells.find((td) => td.dataset.label === status),
      action: stuckRight,
    };
    for (const [what, td] of Object.entries(named)) {
      const at = `${row.dataset.row} ${what}`;
      if (!td) {
        if (what !== "action") cut.push(`${at}: no such cell`);
        continue;
      }
      // Within a pixel: a sticky cell sits on whole pixels, the others where the layout puts them.
      const box = td.getBoundingClientRect();
      if (box.left < left - 1 || box.right > right + 1)
        cut.push(`${at}: ${box.left}–${box.right} outside the box's ${left}–${right}`);
      if (td.scrollWidth > td.clientWidth + 1) cut.push(`${at}: its content is cut`);
      const [under, over] = [stuckLeft?.getBoundingClientRect().right, stuckRight?.getBoundingClientRect().left];
      if (under !== undefined && td !== stuckLeft && box.left < under - 1)
        cut.push(`${at}: from ${box.left}, under the sticky identity column to ${under}`);
      if (over !== undefined && td !== stuckRight && box.right > over + 1)
        cut.push(`${at}: to ${box.right}, under the sticky action column from ${over}`);
    }
  }
  return {
    rows: table.querySelectorAll("tr[data-row]").length,
    approved: table.querySelectorAll("[data-testid=approved-by]").length,
    scrollWidth: scroller.scrollWidth,
    clientWidth: scroller.clientWidth,
    cut,
  };
}

/** The words of each table's amount and status columns (the header, as each cell's data-label). */
const FIT_OF: Record<string, { amount: string; status: string }> = {
  "/orders": { amount: "Amount", status: "Status" },
  "/batches": { amount: "Totals", status: "Status" },
  "/transfers": { amount: "Amount", status: "Status" },
  "/activity": { amount: "What was asked", status: "Outcome" },
};

const tableOf = (page: Page, caption: string) =>
  page.locator("table", { has: page.locator(`caption:text-is("${caption}")`) });

/** One page of one role at one width, all it collects; it stops at the first step that fails. */
async function visit(page: Page, role: Role | null, path: string, width: number, seen: Seen): Promise<void> {
  const who = role ?? "signed-out";
  let step = "loading the page";
  try {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`${app.url}${pathOf(path)}`);
    const landed = new URL(page.url()).pathname;
    if (landed !== new URL(pathOf(path), app.url).pathname) throw new Error(`sent to ${landed}`);
    step = "waiting for every part of the page";
    await untilWhole(page, role, path, width);

    step = "measuring";
    seen.shift = await layoutShiftSoFar(page);
    seen.unformatted = await page.evaluate(ungroupedOnPage, UNGROUPED_NUMBER);
    seen.widths = { light: await pageWidths(page) };
    if (TICKET_ROLES.includes(role) && path === "/orders") {
      seen.marketRoom = await page.locator("#market-view > section").evaluate((card) => ({
        content: card.scrollHeight,
        room: card.parentElement!.clientHeight,
      }));
    }
    if (!TICKET_ROLES.includes(role) && path === "/orders" && width === PHONE) {
      // Before the market's HTML has arrived, as a slow phone may paint the page: the orders
      // (first in the HTML) are drawn where they will stay, under the room kept for the market.
      seen.ordersPlace = await page.getByTestId("market-watch").evaluate((watch) => {
        const table = [...document.querySelectorAll("table")].find((t) => t.caption?.textContent === "Orders");
        const orders = table!.closest("section")!;
        const cell = watch.parentElement!;
        const withMarket = orders.getBoundingClientRect().top;
        const marketBottom = watch.getBoundingClientRect().bottom;
        cell.style.display = "none";
        const withoutMarket = orders.getBoundingClientRect().top;
        cell.style.display = "";
        return { withMarket, withoutMarket, marketBottom };
      });
    }
    if (TABLE_OF[path] && width === LAPTOP) {
      // The table and its hint read in one moment, once the hint has caught up with the table (it
      // follows the table's size a render later, and rows arriving live may change both).
      const caption = TABLE_OF[path]!;
      seen.table = await page
        .waitForFunction(tableWidths, { caption, agreeing: true }, { timeout: 5_000, polling: 50 })
        .then((answer) => answer.jsonValue() as Promise<NonNullable<Seen["table"]>>)
        .catch(() => page.evaluate(tableWidths, { caption, agreeing: false }) as Promise<NonNullable<Seen["table"]>>);
      if (seen.table.scrollWidth > seen.table.clientWidth) await screenshot(page, `fit-${who}-${slug(path)}`);
      if (FIT_OF[path]) seen.cut = (await page.evaluate(fitOf, { caption, ...FIT_OF[path]! })).cut;
    }
    if (path === "/orders" && width === LAPTOP) {
      seen.firstRow = await tableOf(page, TABLE_OF[path]!)
        .locator("tr[data-row]")
        .first()
        .evaluate((row) => ({ bottom: row.getBoundingClientRect().bottom + scrollY, fold: innerHeight }));
      seen.filledCut = await page.locator('td[data-label="Filled"]').evaluateAll(
        (cells) =>
          cells.filter((td) => {
            const box = td.getBoundingClientRect();
            const frame = td.closest("[data-table-scroller]")!.getBoundingClientRect();
            return box.right > frame.right + 0.5 || td.scrollWidth > td.clientWidth;
          }).length,
      );
    }

    step = "scanning with axe";
    seen.axe.light = await axeViolations(page);
    if (role === "admin" && width === LAPTOP && SECTIONS_OPENED.includes(path)) {
      step = "opening the page's sections";
      const summaries = await page.locator("summary").all();
      for (const summary of summaries) await summary.click();
      await afterNextFrames(page);
      // What opened (the rest of the page was scanned just now); with nothing to open, nothing more to scan.
      seen.axe.sectionsOpen = summaries.length ? await axeViolations(page, { within: "details" }) : [];
    }
    await screenshot(page, `light-${who}-${slug(path)}-${width}`);

    step = "switching to the system's dark theme";
    seen.theme = { htmlClass: await htmlClass(page), light: await background(page) };
    await page.emulateMedia({ colorScheme: "dark" });
    await coloursChanged(page);
    seen.theme.dark = await background(page);
    seen.widths.dark = await pageWidths(page);
    step = "scanning the dark theme with axe";
    seen.axe.dark = await axeViolations(page, { rules: COLOUR_RULES });
    await screenshot(page, `dark-${who}-${slug(path)}-${width}`);

    if (role === "admin" && width === LAPTOP) {
      step = "choosing light in the header against the dark system";
      const theme = page.getByRole("group", { name: "Theme" });
      await theme.getByRole("button", { name: "Light" }).click();
      await coloursChanged(page);
      seen.chosenLight = { htmlClass: await htmlClass(page), background: await background(page) };
      seen.axe.chosenLight = await axeViolations(page, { rules: COLOUR_RULES });
      await screenshot(page, `chosen-light-${who}-${slug(path)}-${width}`);
      // Back to the system's, so the next page follows it again.
      await theme.getByRole("button", { name: "System" }).click();
      await until(page, "the system's theme again", () => document.documentElement.className === "");
      await coloursChanged(page);
    }

    if (role === "trader" && path === "/orders") {
      step = "choosing Treasury on the ticket";
      // Treasury's balances are the biggest: they still fit the market panel under the ticket.
      const ticket = page.getByRole("form", { name: "Order ticket" });
      await ticket.getByLabel("Profile", { exact: true }).selectOption({ label: "Treasury" });
      const panel = ticket.locator("dl").first();
      // Tens of millions (other files on the shared app may have moved a little of it).
      await until(page, "Treasury's balances, tens of millions", () =>
        [...(document.querySelector("form[aria-label='Order ticket'] dl")?.querySelectorAll("dd") ?? [])].some((dd) =>
          /^\d\d,\d{3},\d{3}\.\d\d/.test(dd.textContent ?? ""),
        ),
      );
      seen.panelSpills = await panel.evaluate(
        (dl) => [...dl.querySelectorAll("dd")].filter((d) => d.scrollWidth > d.clientWidth + 1).length,
      );
      await screenshot(page, `orders-trader-${width}`);
    }
  } catch (error) {
    seen.stopped = `${step}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** A role's visits at a width, in one browser context of its own, one page navigating from page to page. */
async function visitAll(role: Role | null, width: number, paths: string[]): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>(paths.map((path) => [path, { errors: [], axe: {} }]));
  const context = await browser.newContext({ viewport: { width, height: HEIGHT[width]! }, colorScheme: "light" });
  try {
    const page = await context.newPage();
    await recordLayoutShifts(page);
    let at = paths[0]!;
    page.on("pageerror", (e) => seen.get(at)!.errors.push(e.message.slice(0, 300)));
    if (role) await signInContext(context, app.url, `${role}@example.com`);
    for (const path of paths) {
      at = path;
      await visit(page, role, path, width, seen.get(path)!);
    }
  } catch (error) {
    for (const s of seen.values()) s.stopped ??= `signing in: ${error instanceof Error ? error.message : error}`;
  } finally {
    await context.close();
  }
  return seen;
}

/**
 * The groups' visits, started once the app is ready, AT_ONCE at a time in GROUPS' order: a visit
 * spends part of its time waiting on the app, and another group's visit fills that wait. Each
 * group's describe reads its own as soon as it is done.
 */
const AT_ONCE = 2;
const visits = new Map<(typeof GROUPS)[number], Promise<Map<string, Seen>>>();

/** Runs what it is given, at most `n` at a time, the rest in the order given. */
function atMost(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

beforeAll(async () => {
  // The project's shared app (test/support/shared-app.ts): the market maker quotes there. Its
  // webhook's receiver is on this machine (no one listens at the discard port: it fails).
  app = await resetApp({ SANDBOX_MARKET_MAKER: "on", WEBHOOK_ALLOW_HOSTS: "127.0.0.1" });
  browser = await launchBrowser();
  // A webhook of the desk's (issue 30), added before the seed so the seed's approvals make its
  // deliveries fail: /webhooks shows a long URL and description, "failing since", to measure.
  const admin = await signIn(app, "admin@example.com");
  const webhook = await admin.call("POST", "/api/webhooks", {
    url: "http://127.0.0.1:9/general-ledger/treasury-desk/events?source=dashboard",
    events: ["approval.requested", "approval.decided", "policy.changed"],
    description: "General ledger: approvals asked and decided, and policy changes, for the month-end close",
  });
  if (webhook.status !== 201) throw new Error(`the desk's webhook: ${webhook.status} ${JSON.stringify(webhook.body)}`);
  // A desk's worth of records (issue 26): long ref_ids and metadata, approved, rejected and
  // waiting requests, failures; the widest cells and the most rows there are to be measured.
  await seedDesk(app);
  // A batch of the desk's (issue 27), its ref_id as long as the seed's: a row of /batches to measure.
  const ops = await signIn(app, "ops@example.com");
  const batch = await ops.call("POST", "/api/batches", {
    ref_id: `month-end-${randomUUID()}-${randomUUID()}`.slice(0, 60),
    transfers: [
      { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "USD", amount: "1250.75" },
      { from_profile_id: TREASURY, to_profile_id: SETTLEMENT, asset: "BTC", amount: "0.01234567" },
    ],
  });
  // Sent (201), or held (202) if the seed's transfers brought ops' rolling total to the threshold: a row either way.
  if (batch.status !== 201 && batch.status !== 202)
    throw new Error(`the desk's batch: ${batch.status} ${JSON.stringify(batch.body)}`);
  // A TWAP parent order of the trader's (issue 29), its first slice sent at once: a row of /orders
  // with its child beneath it, and a page of its own, with its chart, to visit.
  const trader = await signIn(app, "trader@example.com");
  const ticker = (await trader.call("GET", "/api/v2/markets/BTCUSD/ticker")).body as { best_ask?: { price?: string } };
  const ask = amountIfSet(ticker.best_ask?.price) ?? "65000";
  const parent = await trader.call("POST", "/api/parent-orders", {
    ref_id: `twap-month-end-${randomUUID()}`.slice(0, 60),
    profile_id: TREASURY,
    market: "BTCUSD",
    side: "BUY",
    base_amount: "0.012",
    strategy: "TWAP",
    duration_seconds: 3600,
    slices: 12,
    limit_price: addDecimal(ask, "500"),
  });
  if (parent.status !== 201)
    throw new Error(`the desk's parent order: ${parent.status} ${JSON.stringify(parent.body)}`);
  parentId = (parent.body as { parent_order: { id: string } }).parent_order.id;

  const run = atMost(AT_ONCE);
  for (const group of GROUPS) {
    visits.set(
      group,
      run(() => visitAll(group.role, group.width, group.paths)),
    );
  }
});

afterAll(async () => {
  // Every group is done before the browser goes (a failed beforeAll started none).
  await Promise.all(visits.values());
  await browser?.close();
});

describe("axe-core", () => {
  it("catches a serious violation (the scan can fail)", async () => {
    const page = await browser.newPage();
    await page.setContent('<html lang="en"><body><main><img src="x.png"><button></button></main></body></html>');
    await expect(expectAccessible(page, "a broken page")).rejects.toThrow(/accessibility of a broken page/);
    await page.close();
  });

  it("scans each region it is given, and only those, in one scan", async () => {
    const page = await browser.newPage();
    // Grey on white (about 1.1:1): a serious color-contrast violation, in the second region only.
    await page.setContent(
      '<html lang="en"><body><main><section id="a"><p>Fine</p></section><section id="b">' +
        '<p style="color:#eee;background:#fff">Faint</p></section><section id="c"><p>Plain</p></section></main></body></html>',
    );
    const rules = ["color-contrast"];
    expect(await axeViolations(page, { rules, within: ["#a", "#b"] })).toEqual([
      expect.stringMatching(/^serious color-contrast: .*\(#b > p\)$/),
    ]);
    expect(await axeViolations(page, { rules, within: ["#a", "#c"] })).toEqual([]);
    await page.close();
  });

  it("reads one table row of each look with the colour rules, and every row with the others", async () => {
    const page = await browser.newPage();
    const faint = "color:#eee;background:#fff";
    const rows = [
      '<td>Open</td><td><span id="s1">BUY</span></td>',
      '<td>Open</td><td><span id="s2">SELL</span></td>', // as the first: skipped by the colour rules
      `<td>Open</td><td><span id="s3" style="${faint}">BUY</span></td>`, // a look of its own: read
      `<td>Open</td><td><span id="s4" style="${faint}">SELL</span></td>`, // as the third: skipped
      `<td id="c5" style="${faint}"></td><td></td>`, // no text: nothing to read
      `<td id="c6" style="${faint}">Faint</td><td></td>`, // the same colours with text: read
      '<td><button id="b7" aria-label="Cancel"></button></td><td></td>',
      '<td><button id="b8"></button></td><td></td>', // as the seventh to the colour rules, not to the others
    ];
    await page.setContent(
      '<html lang="en"><head><title>Rows</title></head><body><main><table><caption>Orders</caption><tbody>' +
        rows.map((cells) => `<tr>${cells}</tr>`).join("") +
        "</tbody></table></main></body></html>",
    );
    const faintText = /^serious color-contrast: .*\(#s3; #c6\)$/;
    expect(await axeViolations(page, { rules: COLOUR_RULES })).toEqual([expect.stringMatching(faintText)]);
    expect((await axeViolations(page)).sort()).toEqual([
      expect.stringMatching(/^critical button-name: .*\(#b8\)$/),
      expect.stringMatching(faintText),
    ]);
    // The marks are gone after each scan.
    expect(await page.locator("[data-axe-repeat]").count()).toBe(0);
    await page.close();
  });
});

for (const group of GROUPS) {
  const { role, width, paths } = group;
  describe(`${role ?? "signed out"} at ${width} px`, () => {
    let seen: Map<string, Seen>;
    beforeAll(async () => {
      seen = await visits.get(group)!;
    }, 600_000);

    for (const path of paths) {
      describe(path, () => {
        /** What the visit saw of `what`; a check whose step the visit did not reach fails with why. */
        function got<T>(pick: (s: Seen) => T | undefined): T {
          const s = seen.get(path)!;
          const value = pick(s);
          if (value === undefined) throw new Error(`the visit stopped at ${s.stopped ?? "an unknown step"}`);
          return value;
        }

        it("throws no page error while it loads and hydrates (no React #418)", () => {
          const s = seen.get(path)!;
          expect(s.errors).toEqual([]);
          // And it got far enough to have hydrated.
          got((s) => s.shift);
        });

        it(`moves less than ${SHIFT_LIMIT} from the first paint until every part has arrived`, () => {
          const { sum, moved } = got((s) => s.shift);
          expect(sum, `what moved:\n${moved.join("\n")}`).toBeLessThan(SHIFT_LIMIT);
        });

        it("does not scroll sideways, in either theme", () => {
          const { light, dark } = got((s) => s.widths);
          expect(light.scrollWidth, "light: scrolls sideways").toBeLessThanOrEqual(light.innerWidth);
          expect(got(() => dark).scrollWidth, "dark: scrolls sideways").toBeLessThanOrEqual(dark!.innerWidth);
        });

        it("has no serious or critical axe violation", () => {
          expect(got((s) => s.axe.light)).toEqual([]);
        });

        it("writes every number through the one formatter: grouped, as everywhere else", () => {
          expect(got((s) => s.unformatted)).toEqual([]);
        });

        it("turns dark in place when the system does: the dark background", () => {
          const theme = got((s) => s.theme);
          expect(theme.htmlClass, "no choice made: the system decides").toBe("");
          expect(theme.light).toBe(LIGHT_BACKGROUND);
          expect(got(() => theme.dark)).toBe(DARK_BACKGROUND);
        });

        it("has no serious or critical axe violation in the dark theme", () => {
          expect(got((s) => s.axe.dark)).toEqual([]);
        });

        if (TABLE_OF[path] && width === LAPTOP) {
          it("shows its records' identity, amount, status and action without scrolling its table sideways", () => {
            const { scrollWidth, clientWidth, hint } = got((s) => s.table);
            expect(scrollWidth, "the table scrolls sideways").toBeLessThanOrEqual(clientWidth);
            // Nothing scrolls, so nothing says it does.
            expect(hint, `the scroll hint shows (the table ${scrollWidth} px in ${clientWidth})`).toBe(false);
          });
        }
        if (FIT_OF[path] && width === LAPTOP) {
          it("shows every row's identity, amount, status and action in view, none under a sticky column", () => {
            expect(got((s) => s.cut)).toEqual([]);
          });
        }
        if (path === "/orders" && width === LAPTOP) {
          it("shows the orders' first row whole above the fold of a laptop's 1280 × 800", () => {
            const { bottom, fold } = got((s) => s.firstRow);
            expect(bottom, `the first row ends at ${bottom} px`).toBeLessThanOrEqual(fold);
          });
          it("shows the Filled column whole: its amount and average price are not cut", () => {
            expect(got((s) => s.filledCut)).toBe(0);
          });
        }
        if (path === "/orders" && TICKET_ROLES.includes(role)) {
          it("fits the market view in the room kept for it: it does not spill over the table", () => {
            const { content, room } = got((s) => s.marketRoom);
            expect(content).toBeLessThanOrEqual(room);
          });
        }
        if (path === "/orders" && !TICKET_ROLES.includes(role) && width === PHONE) {
          it("draws the orders where they stay before the market above them has arrived", () => {
            const { withMarket, withoutMarket, marketBottom } = got((s) => s.ordersPlace);
            expect(withoutMarket, "the orders' top without the market").toBe(withMarket);
            expect(marketBottom, "the market's bottom, within the room kept for it").toBeLessThanOrEqual(withMarket);
          });
        }
        if (path === "/orders" && role === "trader") {
          it("fits Treasury's balances in the market panel under the ticket", () => {
            expect(
              got((s) => s.panelSpills),
              "market panel values overflowing their cell",
            ).toBe(0);
          });
        }
        if (role === "admin" && width === LAPTOP && SECTIONS_OPENED.includes(path)) {
          it("has no serious or critical axe violation with its sections open", () => {
            expect(got((s) => s.axe.sectionsOpen)).toEqual([]);
          });
        }
        if (role === "admin" && width === LAPTOP) {
          it("stays light when light is chosen in the header against a dark system, with no axe violation", () => {
            const chosen = got((s) => s.chosenLight);
            expect(chosen.htmlClass).toBe("light");
            expect(chosen.background).toBe(LIGHT_BACKGROUND);
            expect(got((s) => s.axe.chosenLight)).toEqual([]);
          });
        }
      });
    }
  });
}
