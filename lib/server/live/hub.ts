import "server-only";
import type { Clock } from "../clock";
import { randomUUID } from "node:crypto";
import { can, type Role } from "@/lib/shared/roles";
import { log } from "../ops/log";
import type { UpstreamClient } from "../upstream/client";
import { memoryBus, type Bus, type BusMessage } from "./bus";
import { EVENT_ACTION, type LiveEvent, type Wants } from "./events";
import { Interests } from "./interests";
import { electLeader, type Leadership } from "./leader";
import { pgBus } from "./pg-bus";
import { createWatcher, type Watcher } from "./watcher";

/** How often an instance with open streams tells the others what they watch. */
const ANNOUNCE_EVERY_MS = 2_000;

/** An event as one stream sends it: numbered per instance, for the SSE `id:` line. */
export interface Numbered {
  id: number;
  event: LiveEvent;
}

/** Who a stream is for: the role decides what it sees, the person what it counts against. */
export interface Viewer {
  role: Role;
  person: string;
}

export interface Live {
  /** A stream opens for `viewer`, showing `wants`; `send` gets every event it may see until `close`. */
  open(viewer: Viewer, wants: Wants, send: (e: Numbered) => void): { close(): void };
  /** Streams `person` has open, on every instance of the deployment (the others' as last announced). */
  streamsOf(person: string): number;
  /** An event from this instance (a create's answer, an approval's change), to every stream of the deployment. */
  publish(event: LiveEvent): void;
  /** Streams open on this instance. */
  readonly streams: number;
  /** True while this instance runs the watcher (and sends batches' rows, lib/server/batches). */
  readonly leading: boolean;
  /** Starts the bus and the election now rather than at first use: the batch sender asks whether it leads. */
  start(): void;
  /**
   * Gives up leading for good (a shutdown): the watcher stops and the advisory lock is released,
   * so another instance leads within a second; events still go out to the other instances.
   */
  resign(): Promise<void>;
  stop(): Promise<void>;
}

export interface LiveOptions {
  upstream: UpstreamClient;
  /** PostgreSQL's URL for several instances; undefined: one process, events in memory. */
  databaseUrl?: string;
  /** The bus between instances, when the runtime shares it (session ends travel on it too); closed by `stop`. */
  bus?: Bus;
  watchEveryMs?: number;
  /** The runtime's clock, which paces the watcher's looks. */
  clock?: Pick<Clock, "after">;
}

/**
 * The live updates of one instance: its open streams, the bus to the other instances, and the
 * watcher while it leads. Started by the batch sender at boot (it sends only while leading), or
 * on first use (a stream, or a create to announce) where no sender runs.
 */
export function createLive(options: LiveOptions): Live {
  const instance = randomUUID();
  const interests = new Interests();
  const streams = new Set<{ role: Role; wants: Wants; send: (e: Numbered) => void }>();
  let idleBus = options.bus;
  let seq = 0;
  let started: { bus: Bus; watcher: Watcher; leadership?: Leadership; announcer: NodeJS.Timeout } | undefined;
  let leading = false;
  let resigned = false;

  const deliver = (event: LiveEvent) => {
    const numbered = { id: ++seq, event };
    for (const s of streams) if (visible(s.role, s.wants, event)) s.send(numbered);
  };

  const onMessage = (message: BusMessage) => {
    if (message.kind === "interest") {
      if (message.instance !== instance) {
        interests.heard(message.instance, message.streams, message.profiles, message.markets, message.people);
      }
      return;
    }
    if (message.kind !== "event") return;
    started?.watcher.noted(message.event);
    deliver(message.event);
  };

  const start = () => {
    if (started) return started;
    const bus = options.bus ?? (options.databaseUrl ? pgBus(options.databaseUrl) : memoryBus());
    idleBus = undefined;
    bus.subscribe(onMessage);
    const watcher = createWatcher({
      upstream: options.upstream,
      watched: () => interests.watched(),
      publish: (event) => void send(bus, { kind: "event", event }),
      everyMs: options.watchEveryMs,
      clock: options.clock,
    });
    const roles = {
      lead: () => {
        leading = true;
        watcher.start();
      },
      follow: () => {
        leading = false;
        watcher.stop();
      },
    };
    const leadership = resigned
      ? undefined
      : options.databaseUrl
        ? electLeader(options.databaseUrl, roles)
        : (roles.lead(), undefined);
    const announcer = setInterval(() => announce(), ANNOUNCE_EVERY_MS).unref();
    started = { bus, watcher, leadership, announcer };
    return started;
  };

  /** Tells the other instances what this one's streams watch (nothing to tell with one process). */
  const announce = () => {
    if (!options.databaseUrl || !started) return;
    void send(started.bus, { kind: "interest", instance, ...interests.own() });
  };

  return {
    open({ role, person }, wants, sendEvent) {
      start();
      const stream = { role, wants, send: sendEvent };
      streams.add(stream);
      const release = interests.add(wants, person);
      announce();
      return {
        close() {
          if (!streams.delete(stream)) return;
          release();
          announce();
        },
      };
    },
    publish(event) {
      void send(start().bus, { kind: "event", event });
    },
    start() {
      start();
    },
    streamsOf(person) {
      return interests.streamsOf(person);
    },
    get streams() {
      return streams.size;
    },
    get leading() {
      return leading;
    },
    async resign() {
      resigned = true;
      const s = started;
      if (!s) return;
      const leadership = s.leadership;
      s.leadership = undefined;
      await leadership?.stop();
      s.watcher.stop();
      leading = false;
    },
    async stop() {
      const s = started;
      started = undefined;
      await idleBus?.close();
      if (!s) return;
      clearInterval(s.announcer);
      s.watcher.stop();
      await s.leadership?.stop();
      await s.bus.close();
    },
  };
}

/** Whether a stream of `role` showing `wants` gets `event`. */
export function visible(role: Role, wants: Wants, event: LiveEvent): boolean {
  if (!can(role, EVENT_ACTION[event.name])) return false;
  if (event.name === "balances") return wants.profiles.includes(event.topic ?? "");
  if (event.name === "ticker") return wants.markets.includes(event.topic ?? "");
  return true;
}

async function send(bus: Bus, message: BusMessage): Promise<void> {
  try {
    await bus.publish(message);
  } catch (error) {
    log.error({ err: error }, "live: publish failed");
  }
}
