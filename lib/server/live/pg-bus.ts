import "server-only";
import { randomUUID } from "node:crypto";
import type { Client } from "pg";
import { log } from "../ops/log";
import { deliver, type Bus, type BusMessage } from "./bus";
import { Reassembler, toPayloads } from "./chunks";

/** The channel every instance of the dashboard listens on. */
export const LIVE_CHANNEL = "dashboard_live";
const RECONNECT_MS = 1_000;

/**
 * Events fanned out to every instance over PostgreSQL: NOTIFY on one channel, LISTEN on a
 * connection of its own (a pooled one would lose the LISTEN when returned). A lost connection
 * is made again after a second; what was sent meanwhile is missed, and the pages refetch when
 * their stream reconnects.
 */
export function pgBus(url: string): Bus {
  const listeners = new Set<(message: BusMessage) => void>();
  const reassembler = new Reassembler();
  let client: Promise<Client> | undefined;
  let closed = false;

  const connect = (): Promise<Client> => {
    const connecting = (async () => {
      const { default: pg } = await import("pg");
      const c = new pg.Client({ connectionString: url });
      c.on("error", (error) => {
        log.error({ err: error }, "live: event connection lost");
        lose(connecting);
      });
      c.on("end", () => lose(connecting));
      c.on("notification", (n) => {
        if (n.channel !== LIVE_CHANNEL || !n.payload) return;
        const text = reassembler.add(n.payload);
        if (text !== undefined) deliver(listeners, JSON.parse(text) as BusMessage);
      });
      await c.connect();
      await c.query(`LISTEN ${LIVE_CHANNEL}`);
      return c;
    })();
    connecting.catch(() => lose(connecting));
    return connecting;
  };

  const lose = (which: Promise<Client>) => {
    if (client !== which) return;
    client = undefined;
    which.then((c) => c.end()).catch(() => undefined);
    if (!closed) setTimeout(() => void (closed || client || (client = connect())), RECONNECT_MS).unref();
  };

  const current = () => (client ??= connect());
  void current().catch(() => undefined);

  return {
    async publish(message) {
      const c = await current();
      for (const payload of toPayloads(JSON.stringify(message), randomUUID())) {
        await c.query("SELECT pg_notify($1, $2)", [LIVE_CHANNEL, payload]);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      listeners.clear();
      await c?.then((x) => x.end()).catch(() => undefined);
    },
  };
}
