import "server-only";
import { log } from "../ops/log";
import type { LiveEvent } from "./events";

/**
 * How events and interests travel between the instances of one deployment: in memory within a
 * single process (SQLite), over PostgreSQL's LISTEN/NOTIFY across several (pg-bus.ts).
 */
export type BusMessage =
  | { kind: "event"; event: LiveEvent }
  /**
   * What one instance's open streams watch, sent again every few seconds while they are open;
   * `people`: how many of them each person has open (the limit per person holds across instances).
   */
  | {
      kind: "interest";
      instance: string;
      streams: number;
      profiles: string[];
      markets: string[];
      people?: Record<string, number>;
    }
  /** A session was signed out, revoked or ran out: every instance refuses it and closes its streams. */
  | { kind: "session-ended"; session: string };

export interface Bus {
  /** Delivers to every subscriber of every instance, this one included. */
  publish(message: BusMessage): Promise<void>;
  subscribe(listener: (message: BusMessage) => void): () => void;
  close(): Promise<void>;
}

/** One process: delivered to this process's subscribers, after the publisher's turn. */
export function memoryBus(): Bus {
  const listeners = new Set<(message: BusMessage) => void>();
  return {
    async publish(message) {
      queueMicrotask(() => deliver(listeners, message));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

/** Calls each listener; one that throws does not stop the others. */
export function deliver(listeners: Iterable<(message: BusMessage) => void>, message: BusMessage): void {
  for (const listener of listeners) {
    try {
      listener(message);
    } catch (error) {
      log.error({ err: error }, "live: a listener failed");
    }
  }
}
