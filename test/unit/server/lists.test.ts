import { afterEach, describe, expect, it } from "vitest";
import { csvResponse } from "@/lib/server/lists/csv-response";
import { servicePages } from "@/lib/server/lists/list-page";
import { exportOrders, listOrders } from "@/lib/server/lists/orders-list";
import {
  checkTransferCombination,
  exportTransfers,
  listTransfers,
  refusedTransferCombination,
} from "@/lib/server/lists/transfers-list";
import type { UpstreamRequest } from "@/lib/server/upstream/client";
import type { Order, Transfer } from "@/lib/spec";
import { testRuntime } from "../../support/runtime";
import { listTransfersStrictly, servicePageOf } from "../../support/service-lists";
import listOrdersFixture from "../../fixtures/service/list-orders.json";
import lastOrdersPage from "../../fixtures/service/list-orders-last-page.json";
import listTransfersFixture from "../../fixtures/service/list-transfers.json";
import problem400 from "../../fixtures/service/problem-400.json";

/**
 * The back end's lists against a service as strict as the published reference: List Transfers
 * refuses profile_ids beside anything but created_at.*, pages end without a cursor key, List
 * Orders promises no order. What is sent, what is applied to the pages read, and the counts the
 * table's footer shows.
 */

let disposeAll: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(disposeAll.map((d) => d()));
  disposeAll = [];
});

async function runtimeAnswering(answer: (r: UpstreamRequest) => { status: number; body: unknown }) {
  const t = await testRuntime(answer);
  disposeAll.push(t.dispose);
  return t;
}

const url = (path: string) => new URL(`http://dashboard.test${path}`);

/** The calls to one path, with their query as sent. */
const sentTo = (calls: UpstreamRequest[], path: string) =>
  calls.filter((c) => c.path === path).map((c) => c.query ?? {});

const PROFILES = ["p-trading", "p-treasury", "p-settlement"];
const STATUSES = ["PENDING", "COMPLETED", "FAILED"] as const;
const TYPES = ["INTERNAL_TRANSFER_DEBIT", "INTERNAL_TRANSFER_CREDIT", "CRYPTO_DEPOSIT"] as const;
const ASSETS = ["USD", "BTC"];

/** 90 legs, newest first: every profile, status, type and asset in turn, a minute apart. */
const legs: Transfer[] = Array.from({ length: 90 }, (_, i) => ({
  ...(listTransfersFixture.body.items[2] as unknown as Transfer),
  id: `leg-${String(i).padStart(3, "0")}`,
  profile_id: PROFILES[i % 3]!,
  status: STATUSES[Math.floor(i / 3) % 3]!,
  type: TYPES[Math.floor(i / 9) % 3]!,
  asset: ASSETS[Math.floor(i / 27) % 2]!,
  created_at: new Date(Date.UTC(2026, 2, 2, 12) - i * 60_000).toISOString(),
}));

async function strictTransfers() {
  const t = await runtimeAnswering((r) =>
    r.path === "/transfer/transfers"
      ? listTransfersStrictly(legs, r)
      : r.path === "/profiles"
        ? { status: 200, body: { items: PROFILES.map((id) => ({ id, nickname: id.slice(2) })) } }
        : { status: 404, body: null },
  );
  return t;
}

describe("GET /api/transfers against List Transfers' combinations", () => {
  const from = "2026-03-02T11:00:00.000Z";
  const to = "2026-03-02T11:50:00.000Z";
  const inRange = (t: Transfer) => t.created_at >= from && t.created_at < to;

  it("sends profile_ids with the created_at range only; statuses and type are applied to the pages read", async () => {
    const { runtime, calls } = await strictTransfers();
    const page = await listTransfers(
      runtime,
      url(
        `/api/transfers?profile_ids=p-trading&statuses=PENDING&statuses=FAILED&type=INTERNAL_TRANSFER_DEBIT&from=${from}&to=${to}&limit=200`,
      ),
    );
    const sent = sentTo(calls, "/transfer/transfers");
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0]!).filter((k) => sent[0]![k] !== undefined)).toEqual([
      "profile_ids",
      "created_at.gte",
      "created_at.lt",
      "limit",
    ]);
    const read = legs.filter((t) => t.profile_id === "p-trading" && inRange(t));
    const expected = read.filter(
      (t) => (t.status === "PENDING" || t.status === "FAILED") && t.type === "INTERNAL_TRANSFER_DEBIT",
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(page.items.map((t) => t.id)).toEqual(expected.map((t) => t.id));
    // The footer: "matched N of M read".
    expect(page).toMatchObject({ walked: true, scanned: read.length, truncated: false, next_cursor: null });
  });

  it("without profile_ids sends statuses and the range; type and asset are ours to apply", async () => {
    const { runtime, calls } = await strictTransfers();
    const statuses = await listTransfers(runtime, url(`/api/transfers?statuses=COMPLETED&from=${from}`));
    expect(sentTo(calls, "/transfer/transfers")[0]).toMatchObject({ statuses: ["COMPLETED"], "created_at.gte": from });
    expect(statuses.walked).toBe(false);
    expect(statuses.items.map((t) => t.id)).toEqual(
      legs.filter((t) => t.status === "COMPLETED" && t.created_at >= from).map((t) => t.id),
    );

    calls.length = 0;
    const typed = await listTransfers(runtime, url("/api/transfers?type=CRYPTO_DEPOSIT&asset=BTC&statuses=PENDING"));
    const sent = sentTo(calls, "/transfer/transfers");
    expect(sent.every((q) => q.type === undefined && q.profile_ids === undefined)).toBe(true);
    expect(typed.walked).toBe(true);
    expect(typed.items.map((t) => t.id)).toEqual(
      legs.filter((t) => t.type === "CRYPTO_DEPOSIT" && t.asset === "BTC" && t.status === "PENDING").map((t) => t.id),
    );
  });

  it("pages through the matches with its own cursor, each once, over the service's cursorless last page", async () => {
    const { runtime } = await strictTransfers();
    const seen: string[] = [];
    let cursor: string | null = null;
    let scanned = 0;
    do {
      const page: Awaited<ReturnType<typeof listTransfers>> = await listTransfers(
        runtime,
        url(`/api/transfers?profile_ids=p-treasury&statuses=COMPLETED&limit=4${cursor ? `&cursor=${cursor}` : ""}`),
      );
      seen.push(...page.items.map((t) => t.id));
      scanned += page.scanned;
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(
      legs.filter((t) => t.profile_id === "p-treasury" && t.status === "COMPLETED").map((t) => t.id),
    );
    expect(scanned).toBe(legs.filter((t) => t.profile_id === "p-treasury").length);
  });

  it("exports every matching leg as CSV, to the end, with nothing the service refuses sent", async () => {
    const { runtime, calls } = await strictTransfers();
    const { header, rows } = exportTransfers(
      runtime,
      url("/api/transfers/export.csv?profile_ids=p-settlement&statuses=FAILED&type=INTERNAL_TRANSFER_CREDIT"),
    );
    const text = await (await csvResponse("transfers", header, rows)).text();
    const lines = text.trimEnd().split("\r\n");
    const expected = legs.filter(
      (t) => t.profile_id === "p-settlement" && t.status === "FAILED" && t.type === "INTERNAL_TRANSFER_CREDIT",
    );
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(expected.map((t) => t.id));
    for (const q of sentTo(calls, "/transfer/transfers")) expect(refusedTransferCombination(q)).toBeUndefined();
  });

  it("names the combinations List Transfers refuses, and answers them 400 naming the field", () => {
    expect(refusedTransferCombination({ profile_ids: ["p"], "created_at.gte": "2026-01-01T00:00:00Z", limit: 5 })).toBe(
      undefined,
    );
    expect(refusedTransferCombination({ group_ids: ["g"], limit: 10 })).toBeUndefined();
    expect(refusedTransferCombination({ statuses: ["PENDING"], "updated_at.lt": "2026-01-01T00:00:00Z" })).toBe(
      undefined,
    );
    expect(refusedTransferCombination({ profile_ids: ["p"], statuses: ["PENDING"] })).toEqual({
      field: "profile_ids",
      other: "statuses",
    });
    expect(refusedTransferCombination({ ref_ids: ["r"], type: "CRYPTO_DEPOSIT" })).toMatchObject({ field: "ref_ids" });
    expect(refusedTransferCombination({ type: "CRYPTO_DEPOSIT", group_ids: ["g"] })).toEqual({
      field: "type",
      other: "group_ids",
    });
    expect(() => checkTransferCombination({ profile_ids: ["p"], type: "CRYPTO_DEPOSIT" })).toThrow(
      expect.objectContaining({
        problem: expect.objectContaining({
          status: 400,
          meta: {
            errors: [{ field: "profile_ids", message: expect.stringMatching(/created_at\.\* or updated_at\.\*/) }],
          },
        }),
      }),
    );
  });
});

describe("GET /api/orders: newest first by created_at, whatever order the service lists them in", () => {
  /** 60 orders, oldest first, as a service may list them. */
  const oldestFirst: Order[] = Array.from({ length: 60 }, (_, i) => ({
    ...(lastOrdersPage.body.items[0] as unknown as Order),
    id: `order-${String(i).padStart(2, "0")}`,
    side: i % 4 === 0 ? "SELL" : "BUY",
    created_at: new Date(Date.UTC(2026, 2, 2, 9) + i * 1000).toISOString(),
  }));

  it("sorts every order read, newest first, and pages through them", async () => {
    const { runtime, calls } = await runtimeAnswering((r) => ({
      status: 200,
      body: servicePageOf(oldestFirst, r.query),
    }));
    const first = await listOrders(runtime, url("/api/orders?limit=25"));
    expect(first.items.map((o) => o.id)).toEqual(
      oldestFirst
        .map((o) => o.id)
        .reverse()
        .slice(0, 25),
    );
    const second = await listOrders(runtime, url(`/api/orders?limit=25&cursor=${first.next_cursor}`));
    expect(second.items[0]!.id).toBe("order-34");
    expect(first).toMatchObject({ walked: false, scanned: 60, truncated: false });
    // Read as the service pages it: its largest pages, to the last page without a cursor.
    expect(sentTo(calls, "/orders")[0]).toMatchObject({ limit: 1000 });

    const sells = await listOrders(runtime, url("/api/orders?side=SELL&limit=5"));
    expect(sells.items.map((o) => o.id)).toEqual(["order-56", "order-52", "order-48", "order-44", "order-40"]);
    expect(sells).toMatchObject({ walked: true, scanned: 60 });
  });

  it("reads the published List Orders page as it is: '0' amounts, no created_at, a short page ending the walk", async () => {
    const pages: Record<string, unknown> = {
      first: listOrdersFixture.body,
      [listOrdersFixture.body.next_page_cursor]: lastOrdersPage.body,
    };
    const { runtime, calls } = await runtimeAnswering((r) => ({
      status: 200,
      body: pages[typeof r.query?.page_cursor === "string" ? r.query.page_cursor : "first"],
    }));
    const page = await listOrders(runtime, url("/api/orders"));
    // Two orders where 1000 were asked: the last page, whatever cursor it carries.
    expect(sentTo(calls, "/orders")).toHaveLength(1);
    expect(page.items.map((o) => o.ref_id)).toEqual(["desk-order-1", "desk-order-2"]);
    expect(page.items[1]).toMatchObject({ type: "MARKET", base_amount: "0", price: "0", quote_amount: "500.00" });
  });

  it("exports the service's pages to the last one, which carries no cursor key", async () => {
    // A full first page of 1,000 with a cursor, then the published pages' four orders: the last page.
    const filler = Array.from({ length: 998 }, (_, i) => ({ ...oldestFirst[1]!, id: `filler-${i}`, ref_id: "" }));
    const fixtures = [listOrdersFixture.body.items, lastOrdersPage.body.items].flat() as unknown as Order[];
    const { runtime, calls } = await runtimeAnswering((r) =>
      r.path === "/orders"
        ? { status: 200, body: servicePageOf([...filler, ...fixtures], r.query) }
        : { status: 200, body: { items: [] } },
    );
    const { header, rows } = exportOrders(runtime, url("/api/orders/export.csv?side=BUY"));
    const text = await (await csvResponse("orders", header, rows)).text();
    const refs = text
      .trimEnd()
      .split("\r\n")
      .slice(1)
      .map((l) => l.split(",")[18])
      .filter(Boolean);
    expect(refs).toEqual(["desk-order-1", "desk-order-2", "desk-order-4"]);
    expect(sentTo(calls, "/orders").map((q) => [q.limit, q.page_cursor === undefined])).toEqual([
      [1000, true],
      [1000, false],
    ]);
  });

  it("relays the service's 400 problem as it is, without a meta of its own", async () => {
    const { runtime } = await runtimeAnswering(() => ({ status: problem400.status, body: problem400.body }));
    await expect(listOrders(runtime, url("/api/orders"))).rejects.toMatchObject({ problem: problem400.body });
    await expect(servicePages(runtime.upstream, "/orders", {})(undefined, 10)).rejects.toMatchObject({
      problem: { status: 400, title: "Bad Request" },
    });
  });
});
