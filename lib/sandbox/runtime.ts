import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { FINAL_ORDER_STATUSES, SCOPES } from "@/lib/spec";
import type { SandboxConfig } from "./config";
import { Exchange } from "./engine/exchange";
import type { EngineOrder } from "./engine/types";
import { MarketMaker } from "./market-maker";
import { TokenIssuer, type Client } from "./oauth";
import { RateLimiter } from "./rate-limit";
import { DEMO_CUSTOMER_ID, HOUSE_CUSTOMER_IDS, seedExchange } from "./seed";
import { SandboxStore } from "./store";

const ADVANCE_EVERY_MS = 100;
const MARKET_MAKER_EVERY_MS = 1000;

/**
 * The running sandbox: the engine, its store, its clock and its market maker. Every
 * command runs synchronously and its changes are stored in one transaction before the
 * next command starts, so concurrent requests see a consistent service.
 */
export class SandboxRuntime {
  exchange!: Exchange;
  readonly store: SandboxStore;
  readonly tokens: TokenIssuer;
  readonly clients: ReadonlyMap<string, Client>;
  readonly limiter: RateLimiter;
  private marketMaker!: MarketMaker;
  private marketMakerOn: boolean;
  private timers: NodeJS.Timeout[] = [];
  private processing = false;
  private stopped = false;

  constructor(
    readonly config: SandboxConfig,
    readonly now: () => number = Date.now,
    storeFile = join(config.dataDir, "sandbox.db"),
  ) {
    this.marketMakerOn = config.marketMaker;
    this.store = new SandboxStore(storeFile);
    this.load();
    let key = this.store.meta("token_key");
    if (!key) this.store.setMeta("token_key", (key = TokenIssuer.newKey()));
    this.tokens = new TokenIssuer(Buffer.from(key, "hex"), config.tokenTtlSeconds, now);
    this.limiter = new RateLimiter(now, { penaltyMs: config.ratePenaltySeconds * 1000 });
    this.clients = new Map([
      [
        config.clientId,
        { id: config.clientId, secret: config.clientSecret, customerId: DEMO_CUSTOMER_ID, scopes: SCOPES },
      ],
    ]);
  }

  /** (Re)builds the engine from the store, seeding the demo on first start. */
  private load(): void {
    this.exchange = new Exchange({
      now: this.now,
      newId: randomUUID,
      transferSettleMillis: this.config.transferSettleMillis,
      cancelSettleMillis: this.config.cancelSettleMillis,
      houseCustomers: HOUSE_CUSTOMER_IDS,
    });
    if (this.store.isEmpty) {
      seedExchange(this.exchange);
      this.store.persist(this.exchange.drainChanges());
    } else {
      this.store.loadInto(this.exchange);
    }
    this.marketMaker = new MarketMaker(this.exchange, { seed: this.config.seed });
    // The book rebuilt, then what fell due while stopped: cancels acknowledged before a restart
    // take effect now (a fill restored before them has won), as do GTT expiries and settlements.
    this.run((ex) => {
      ex.processSubmitted();
      ex.advance();
    });
  }

  /**
   * Runs one engine command and stores what it changed. If storing fails, the engine is
   * rebuilt from the store, so memory never holds a change the disk does not.
   */
  run<T>(command: (exchange: Exchange) => T): T {
    try {
      return command(this.exchange);
    } finally {
      try {
        this.store.persist(this.exchange.drainChanges());
      } catch (error) {
        this.load();
        throw error;
      }
    }
  }

  /** Matches submitted orders on the next turn of the event loop, after the create answered. */
  scheduleProcessing(): void {
    if (this.processing) return;
    this.processing = true;
    setImmediate(() => {
      this.processing = false;
      // Stopped meanwhile (its store closed): what was submitted is matched at the next start.
      if (!this.stopped) this.run((ex) => ex.processSubmitted());
    });
  }

  /** Resolves once the order is completely filled or final, or when `millis` have passed. */
  awaitFill(orderId: string, millis: number): Promise<void> {
    const done = (o: EngineOrder | undefined) => !o || o.status === "FILLED" || FINAL_ORDER_STATUSES.includes(o.status);
    if (done(this.exchange.orders.get(orderId))) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(finish, millis);
      const unsubscribe = this.exchange.onOrderChange((o) => {
        if (o.id === orderId && done(o)) finish();
      });
    });
  }

  /** Starts the clock (GTT expiry, acknowledged cancels, transfer settlement) and the market maker. */
  start(): this {
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(() => {
        try {
          fn();
        } catch (error) {
          this.config.onError?.("sandbox: scheduled work failed", error);
        }
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(ADVANCE_EVERY_MS, () => this.run((ex) => ex.advance()));
    every(MARKET_MAKER_EVERY_MS, () => {
      if (!this.marketMakerOn) return;
      this.run((ex) => {
        this.marketMaker.step();
        ex.processSubmitted();
      });
    });
    return this;
  }

  /** Starts or stops the house market maker's quoting and trading (SANDBOX_MARKET_MAKER at start). */
  setMarketMaker(on: boolean): void {
    this.marketMakerOn = on;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.store.close();
  }
}
