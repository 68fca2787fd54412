// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrderTicket } from "@/components/orders/order-ticket";
import { TIF_WORDS } from "@/lib/shared/describe-order";
import { formatTime } from "@/lib/shared/format";
import { ORDER_TYPES, type OrderType, type TimeInForce } from "@/lib/spec/enums";
import { timeInForceFor } from "@/lib/spec/time-in-force";
import { renderAs, type RenderedAs } from "../support/components";

/**
 * The ticket says what it will send (issue 26): the time in force the select shows is the one
 * the review restates, after any change of order type, with no pick and with a person's own.
 * The ticket as /orders renders it for a trader, against the in-process back end.
 */

type Ticket = ReturnType<typeof within>;
const field = (ticket: Ticket, label: string) =>
  ticket.getByLabelText(label, { selector: "input, select" }) as HTMLInputElement | HTMLSelectElement;

/** What each quantity field gets when it is on screen and empty: enough for any type to review. */
const QUANTITIES: [string, string][] = [
  ["Stop price (USD)", "29000.00"],
  ["Price (USD)", "30000.00"],
  ["Base amount (BTC)", "0.001"],
  ["Quote amount (USD)", "10.00"],
];

/** A datetime-local value an hour from now, in this process's zone. */
function anHourAhead(): string {
  const d = new Date(Date.now() + 3_600_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The review's sentence and the GTT expiry it would send (none unless GTT), then back to the form. */
async function reviewWords(user: UserEvent, ticket: Ticket): Promise<{ sentence: string; expiry: string | undefined }> {
  for (const [label, value] of QUANTITIES) {
    const input = ticket.queryByLabelText(label, { selector: "input" }) as HTMLInputElement | null;
    if (input && !input.value) await user.type(input, value);
  }
  await user.click(ticket.getByRole("button", { name: "Review order" }));
  const review = await ticket.findByTestId("order-review");
  // The controls' answer is in: the review is whole.
  await waitFor(() => expect(ticket.getByTestId("controls-note").hasAttribute("aria-busy")).toBe(false));
  const sentence = review.textContent ?? "";
  const expiryTerm = [...ticket.getByTestId("review").querySelectorAll("dt")].find(
    (dt) => dt.textContent === "expiration_date",
  );
  const expiry = expiryTerm ? (expiryTerm.nextElementSibling?.textContent ?? "") : undefined;
  await user.click(ticket.getByRole("button", { name: "Edit" }));
  await waitFor(() => expect(ticket.queryByTestId("order-review")).toBeNull());
  return { sentence, expiry };
}

/** The words the review must hold for `tif`: a GTT names the instant it sends. */
const wordsFor = (tif: TimeInForce, expiry: string | undefined) =>
  tif === "GTT" ? `good till ${formatTime(Number(expiry), "UTC")}` : TIF_WORDS[tif];

/** Changes the type, then reads the select and the review: both must say `expected`. */
async function changeTypeAndRead(
  user: UserEvent,
  ticket: Ticket,
  from: OrderType,
  to: OrderType,
  expected: TimeInForce,
) {
  await user.selectOptions(field(ticket, "Order type"), to);
  const step = `${from} -> ${to}`;
  expect(field(ticket, "Time in force").value, `${step}: the select`).toBe(expected);
  const { sentence, expiry } = await reviewWords(user, ticket);
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
const WALK = everyTypeChange();
/** The walk in five legs of four changes, each leg starting where the last ended: one test each. */
const LEGS = [0, 4, 8, 12, 16].map((at) => WALK.slice(at, at + 5));

/** Walks `walk` from wherever the ticket is (a leg starts where the last ended), reading the select and the review after each change. */
async function walkTypes(
  user: UserEvent,
  ticket: Ticket,
  walk: readonly OrderType[],
  expected: (type: OrderType) => TimeInForce,
) {
  let at = field(ticket, "Order type").value as OrderType;
  for (const to of walk) {
    if (to === at) continue;
    await changeTypeAndRead(user, ticket, at, to, expected(to));
    at = to;
  }
}

/** A trader's ticket with Trading chosen, for the tests of a describe, which run in order on it. */
function sharedTicket(): { user: UserEvent; ticket: () => Ticket } {
  let page: RenderedAs;
  let ticket: Ticket;
  const user = userEvent.setup();
  beforeAll(async () => {
    page = await renderAs("trader", <OrderTicket email="trader@example.com" controlsLine={null} />);
    ticket = within(await screen.findByRole("form", { name: "Order ticket" }));
    await waitFor(() => expect(field(ticket, "Profile").querySelectorAll("option").length).toBeGreaterThan(1));
    await user.selectOptions(field(ticket, "Profile"), "Trading");
  });
  afterAll(async () => {
    await page?.close();
  });
  return { user, ticket: () => ticket };
}

it("walks every change of order type, each once", () => {
  const changes = WALK.slice(1).map((to, i) => `${WALK[i]} -> ${to}`);
  expect(new Set(changes).size).toBe(ORDER_TYPES.length * (ORDER_TYPES.length - 1));
  expect(changes.length).toBe(new Set(changes).size);
  expect(WALK.slice(0, 3)).toEqual(["LIMIT", "MARKET", "LIMIT"]);
});

describe("with no pick, every change of order type shows the new type's default, in the select and the review", () => {
  const { user, ticket } = sharedTicket();

  it.each(LEGS.map((leg) => [leg.join(" -> "), leg] as const))("%s", async (_, leg) => {
    await walkTypes(user, ticket(), leg, (type) => timeInForceFor(type).default);
  });
});

describe("a person's own pick comes back with its type, and goes to no other", () => {
  const { user, ticket } = sharedTicket();
  // A pick that is not the default, on each type that has a choice: IOC on Limit among them.
  const picks: Partial<Record<OrderType, TimeInForce>> = {
    LIMIT: "IOC",
    POST_ONLY_LIMIT: "FOK",
    STOP_MARKET: "GTT",
    STOP_LIMIT: "GTT",
  };

  it("shows each type's default until the person picks another", async () => {
    let at = field(ticket(), "Order type").value as OrderType;
    for (const [type, tif] of Object.entries(picks) as [OrderType, TimeInForce][]) {
      if (type !== at) await changeTypeAndRead(user, ticket(), at, type, timeInForceFor(type).default);
      at = type;
      expect(tif).not.toBe(timeInForceFor(type).default);
      await user.selectOptions(field(ticket(), "Time in force"), tif);
      const expires = ticket().queryByLabelText("Expires (your local time)", { selector: "input" });
      if (tif === "GTT" && !(expires as HTMLInputElement).value) await user.type(expires!, anHourAhead());
    }
  });

  // The first leg starts Limit -> Market -> Limit: the IOC picked on Limit is back.
  it.each(LEGS.map((leg) => [leg.join(" -> "), leg] as const))("%s", async (_, leg) => {
    await walkTypes(user, ticket(), leg, (type) => picks[type] ?? timeInForceFor(type).default);
  });
});
