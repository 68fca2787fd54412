import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { HANDLERS } from "@/lib/client/live-events";
import { keys } from "@/lib/client/queries";

const ORDER_ID = "6c9aed2e-8b4f-4edf-8dc4-42a86ba426cf";
const order = (status: string, modified_at: string) => ({ id: ORDER_ID, status, modified_at, amount_filled: "0" });
const submitted = order("SUBMITTED", "2026-11-24T10:00:00.100Z");
const open = order("OPEN", "2026-11-24T10:00:00.300Z");

describe("an order event in the cache", () => {
  it("replaces the order in a list that shows it, unless it is an older state", () => {
    const client = new QueryClient();
    const list = keys.orders({ limit: 25 });
    client.setQueryData(list, { items: [submitted] });
    HANDLERS.order!(client, open);
    expect(client.getQueryData(list)).toEqual({ items: [open], extra: undefined });
    HANDLERS.order!(client, submitted);
    expect(client.getQueryData(list)).toEqual({ items: [open], extra: undefined });
  });

  it("is waiting for the result card that opens after it: the create's answer came later than the watcher's news", () => {
    const client = new QueryClient();
    HANDLERS.order!(client, open);
    expect(client.getQueryData(keys.order(ORDER_ID))).toEqual(open);
    // The create's own (older) answer pushed afterwards does not undo it.
    HANDLERS.order!(client, submitted);
    expect(client.getQueryData(keys.order(ORDER_ID))).toEqual(open);
  });

  it("moves the card's record on when the card already follows it", () => {
    const client = new QueryClient();
    client.setQueryData(keys.order(ORDER_ID), submitted);
    HANDLERS.order!(client, open);
    expect(client.getQueryData(keys.order(ORDER_ID))).toEqual(open);
    expect(client.getQueryData(keys.transfer(ORDER_ID))).toBeUndefined();
  });
});
