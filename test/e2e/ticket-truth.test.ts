import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TIF_WORDS } from "@/lib/shared/describe-order";
import { formatTime } from "@/lib/shared/format";
import { ORDER_TYPES, type OrderType, type TimeInForce } from "@/lib/spec/enums";
import { timeInForceFor } from "@/lib/spec/time-in-force";
import { signIn } from "../support/app-server";
import { hydrated, launchBrowser, poll, signInAs, WIDTHS } from "../support/browser";
import { SETTLEMENT, TREASURY } from "../support/dashboard";
import { resetApp, type SharedApp } from "../support/shared-app";

/**
 * The ticket says what it will send (issue 26): the time in force the select shows is the one
 * the review restates, after any change of order type, the profile a person last chose is
 * theirs alone on the next load, and the order's worth is one figure, said once.
 */

let app: SharedApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([resetApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
});

const field = (ticket: Locator, name: string) => ticket.getByLabel(name, { exact: true });

/** A page of its own context (own cookies and localStorage), at laptop width, signed in on /orders. */
async function laptopPage(email: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: WIDTHS.laptop, height: 1000 } });
  await signInAs(page, app.url, email);
  return page;
}

/** The ticket once its profiles have loaded (the placeholder and at least one profile). */
async function loadedTicket(page: Page): Promise<Locator> {
  const ticket = page.getByRole("form", { name: "Order ticket" });
  await field(ticket, "Profile").locator("option").nth(1).waitFor({ state: "attached" });
  return ticket;
}

async function tradingTicket(page: Page): Promise<Locator> {
  const ticket = await loadedTicket(page);
  await field(ticket, "Profile").selectOption({ label: "Trading" });
  return ticket;
}

/** What each quantity field gets when it is on screen and empty: enough for any type to review. */
const QUANTITIES: [string, string][] = [
  ["Stop price (USD)", "29000.00"],
  ["Price (USD)", "30000.00"],
  ["Base amount (BTC)", "0.001"],
  ["Quote amount (USD)", "10.00"],
];

async function fillQuantities(ticket: Locator): Promise<void> {
  // The empty ones read in one call: the walk reviews some fifty times.
  const empty = await ticket
    .locator("input[inputmode=decimal]")
    .evaluateAll((inputs) =>
      inputs.filter((i) => !(i as HTMLInputElement).value).map((i) => (i as HTMLInputElement).labels?.[0]?.textContent),
    );
  for (const [name, value] of QUANTITIES) if (empty.includes(name)) await field(ticket, name).fill(value);
}

/** The review's sentence and the GTT expiry it would send (none unless GTT), then back to the form. */
async function reviewWords(ticket: Locator): Promise<{ sentence: string; expiry: string | undefined }> {
  await fillQuantities(ticket);
  await ticket.getByRole("button", { name: "Review order" }).click();
  const review = ticket.getByTestId("order-review");
  await review.waitFor();
  // The controls' note grows by a line or two when their answer comes, moving the buttons down:
  // Edit is clicked once it has come, where it will stay.
  await ticket.locator('[data-testid="controls-note"]:not([aria-busy])').waitFor();
  const sentence = (await review.textContent()) ?? "";
  const expiryRow = ticket.getByTestId("review").locator("dt", { hasText: "expiration_date" });
  const expiry = (await expiryRow.count())
    ? ((await expiryRow.locator("xpath=following-sibling::dd").textContent()) ?? "")
    : undefined;
  await ticket.getByRole("button", { name: "Edit", exact: true }).click();
  await review.waitFor({ state: "detached" });
  return { sentence, expiry };
}

/** The words the review must hold for `tif`: a GTT names the instant it sends. */
const wordsFor = (tif: TimeInForce, expiry: string | undefined) =>
  tif === "GTT" ? `good till ${formatTime(Number(expiry), "UTC")}` : TIF_WORDS[tif];

/** Changes the type, then reads the select and the review: both must say `expected`. */
async function changeTypeAndRead(ticket: Locator, from: OrderType, to: OrderType, expected: TimeInForce) {
  await field(ticket, "Order type").selectOption(to);
  const step = `${from} -> ${to}`;
  expect(await field(ticket, "Time in force").inputValue(), `${step}: the select`).toBe(expected);
  const { sentence, expiry } = await reviewWords(ticket);
  expect(expiry === undefined, `${step}: an expiry is sent only with GTT`).toBe(expected !== "GTT");
  if (expected === "GTT") expect(expiry, `${step}: 13-digit unix ms`).toMatch(/^\d{13}$/);
  expect(sentence, `${step}: the review`).toContain(`, ${wordsFor(expected, expiry)}, `);
}

/**
 * Every change from one order type to another, each once, as one walk (an Euler circuit: each
 * type is left and entered four times), found by Hierholzer's method. It starts Limit -> Market
 * -> Limit.
 */
function everyTypeChange(): OrderType[] {
  const unused = new Map(ORDER_TYPES.map((t) => [t, ORDER_TYPES.filter((u) => u !== t)]));
  const stack: OrderType[] = [ORDER_TYPES[0]];
  const walk: OrderType[] = [];
  while (stack.length) {
    const next = unused.get(stack.at(-1)!)!.shift();
    if (next) stack.push(next);
    else walk.push(stack.pop()!);
  }
  return walk.reverse();
}

/** The walk in five legs of four changes, each leg starting where the last ended: one test each. */
const WALK = everyTypeChange();
const LEGS = [0, 4, 8, 12, 16].map((at) => WALK.slice(at, at + 5));
const LEG_CASES = LEGS.map((leg) => [leg.join(" -> "), leg] as const);

/** Walks `leg` from wherever the ticket is, reading the select and the review after each change. */
async function walkLeg(ticket: Locator, leg: readonly OrderType[], expected: (type: OrderType) => TimeInForce) {
  let at = (await field(ticket, "Order type").inputValue()) as OrderType;
  for (const to of leg) {
    if (to === at) continue;
    await changeTypeAndRead(ticket, at, to, expected(to));
    at = to;
  }
}

/** A datetime-local value an hour from the page's now, in the page's zone. */
const anHourAhead = (page: Page) =>
  page.evaluate(() => {
    const d = new Date(Date.now() + 3_600_000);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  });

/** One trader's ticket for the tests of a describe, which run in order on it. */
function sharedTicket(): { ticket: () => Locator; page: () => Page } {
  let page: Page;
  let ticket: Locator;
  beforeAll(async () => {
    page = await laptopPage("trader@example.com");
    ticket = await tradingTicket(page);
  });
  afterAll(async () => {
    await page?.close();
  });
  return { ticket: () => ticket, page: () => page };
}

describe("with no pick, every change of order type shows the new type's default, in the select and the review", () => {
  const { ticket } = sharedTicket();

  it("walks every change of order type, each once", () => {
    const changes = WALK.slice(1).map((to, i) => `${WALK[i]} -> ${to}`);
    expect(new Set(changes).size).toBe(ORDER_TYPES.length * (ORDER_TYPES.length - 1));
    expect(changes.length).toBe(new Set(changes).size);
    expect(WALK.slice(0, 3)).toEqual(["LIMIT", "MARKET", "LIMIT"]);
  });

  it.each(LEG_CASES)("%s", async (_, leg) => {
    await walkLeg(ticket(), leg, (type) => timeInForceFor(type).default);
  });
});

describe("a person's own pick comes back with its type, and goes to no other", () => {
  const shared = sharedTicket();
  // A pick that is not the default, on each type that has a choice: IOC on Limit among them.
  const picks: Partial<Record<OrderType, TimeInForce>> = {
    LIMIT: "IOC",
    POST_ONLY_LIMIT: "FOK",
    STOP_MARKET: "GTT",
    STOP_LIMIT: "GTT",
  };

  it("shows each type's default until the person picks another", async () => {
    const ticket = shared.ticket();
    let at = (await field(ticket, "Order type").inputValue()) as OrderType;
    for (const [type, tif] of Object.entries(picks) as [OrderType, TimeInForce][]) {
      if (type !== at) await changeTypeAndRead(ticket, at, type, timeInForceFor(type).default);
      at = type;
      expect(tif).not.toBe(timeInForceFor(type).default);
      await field(ticket, "Time in force").selectOption(tif);
      if (tif === "GTT" && !(await field(ticket, "Expires (your local time)").inputValue())) {
        await field(ticket, "Expires (your local time)").fill(await anHourAhead(shared.page()));
      }
    }
  });

  // The first leg starts Limit -> Market -> Limit: the IOC picked on Limit is back.
  it.each(LEG_CASES)("%s", async (_, leg) => {
    await walkLeg(shared.ticket(), leg, (type) => picks[type] ?? timeInForceFor(type).default);
  });
});

describe("the ticket starts from the last profile its person chose", () => {
  it("keeps a person's profile across a reload, and gives it to nobody else on the same browser", async () => {
    const page = await laptopPage("trader@example.com");
    let ticket = await loadedTicket(page);
    const profile = () => field(ticket, "Profile").locator("option:checked").textContent();
    await field(ticket, "Profile").selectOption({ label: "Treasury" });

    await page.reload();
    await hydrated(page);
    ticket = await loadedTicket(page);
    await poll(profile, { message: "the trader's choice, after a reload" }).toBe("Treasury");

    // Another person signs in on the same browser (same context: the same localStorage).
    await signInAs(page, app.url, "admin@example.com");
    ticket = await loadedTicket(page);
    // A change whose effect is on screen: React has run the effects of the render that drew the profiles.
    await field(ticket, "Order type").selectOption("MARKET");
    await field(ticket, "Quote amount (USD)").waitFor();
    expect(await field(ticket, "Profile").inputValue(), "the admin starts with no profile chosen").toBe("");
    await field(ticket, "Profile").selectOption({ label: "Settlement" });

    await signInAs(page, app.url, "trader@example.com");
    ticket = await loadedTicket(page);
    await poll(profile, { message: "the trader's own choice, untouched by the admin's" }).toBe("Treasury");

    await signInAs(page, app.url, "admin@example.com");
    ticket = await loadedTicket(page);
    await poll(profile, { message: "the admin's own choice" }).toBe("Settlement");
    await page.close();
  });
});

describe("the ticket's worth: one figure, said once, by the controls' rule", () => {
  beforeAll(async () => {
    // A book that holds still (the market maker is off): bid 64,000 and ask 66,000, a mid of 65,000.
    const trader = await signIn(app, "trader@example.com");
    for (const [profile, side, price] of [
      [TREASURY, "BUY", "64000.00"],
      [SETTLEMENT, "SELL", "66000.00"],
    ]) {
      const res = await trader.call("POST", `/api/v2/profiles/${profile}/orders`, {
        market: "BTCUSD",
        side,
        type: "LIMIT",
        price,
        base_amount: "0.01",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  /** Every estimate of the order's value the ticket shows: its label and figure, as read. */
  const estimates = (ticket: Locator) =>
    ticket.evaluate((form) =>
      [...(form as HTMLElement).innerText.matchAll(/(Worth about|notional)[^\d]*([\d,]+\.\d\d)/gi)].map(
        (m) => `${m[1]} ${m[2]}`,
      ),
    );

  for (const [size, width] of [
    ["laptop", WIDTHS.laptop],
    ["phone", WIDTHS.phone],
  ] as const) {
    it(`${size} (${width} px): a bid of 0.001 BTC at 60,000 below the mid is worth 65.00 USD, in the panel, then in the review alone`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 844 } });
      await signInAs(page, app.url, "trader@example.com");
      const ticket = await tradingTicket(page);
      await field(ticket, "Price (USD)").fill("60000");
      await field(ticket, "Base amount (BTC)").fill("0.001");
      // Valued at the mid, as the controls value it, not at its own 60.00.
      await poll(() => estimates(ticket)).toEqual(["Worth about 65.00"]);

      await ticket.getByRole("button", { name: "Review order" }).click();
      const note = ticket.getByTestId("controls-note");
      await poll(() => note.getAttribute("data-outcome")).toBe("send");
      expect(await note.innerText()).toContain("Worth about 65.00 USD.");
      expect(await estimates(ticket)).toEqual(["Worth about 65.00"]);

      // Back to the form: the panel's estimate again, once.
      await ticket.getByRole("button", { name: "Edit", exact: true }).click();
      await poll(() => estimates(ticket)).toEqual(["Worth about 65.00"]);
      await page.close();
    });
  }
});
