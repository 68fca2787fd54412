import Database from "better-sqlite3";
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type { Changes, Exchange } from "./engine/exchange";
import type { EngineOrder, EngineTransfer, Profile } from "./engine/types";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS profiles (
  id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, nickname TEXT NOT NULL, type TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS balances (
  profile_id TEXT NOT NULL, asset TEXT NOT NULL, available TEXT NOT NULL, trading TEXT NOT NULL,
  PRIMARY KEY (profile_id, asset));
CREATE TABLE IF NOT EXISTS orders (
  id TEXT PRIMARY KEY, seq INTEGER NOT NULL, status TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS orders_seq ON orders (seq);
CREATE TABLE IF NOT EXISTS transfers (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS transfers_created ON transfers (created_at);
`;

/** The engine's bigint fields, written as decimal digit strings. */
const ORDER_BIGINTS = [
  "price",
  "stopPrice",
  "baseAmount",
  "quoteAmount",
  "open",
  "filledBase",
  "filledQuote",
  "held",
] as const;

const toJson = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));

function orderFromJson(text: string): EngineOrder {
  const raw = JSON.parse(text) as Record<string, unknown>;
  for (const field of ORDER_BIGINTS) if (raw[field] !== null) raw[field] = BigInt(raw[field] as string);
  return raw as unknown as EngineOrder;
}

/**
 * The sandbox's durable state in an embedded SQLite file. Each engine command's changes
 * are written in one transaction, so no fill is stored without its balance moves and no
 * transfer leg without the other.
 */
export class SandboxStore {
  private db: Database.Database;

  constructor(file: string) {
    if (file !== ":memory:") {
      mkdirSync(dirname(file), { recursive: true });
      // It holds the token signing key: owner only. SQLite gives its -wal and -shm files the same mode.
      closeSync(openSync(file, "a", 0o600));
      chmodSync(file, 0o600);
    }
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.exec(SCHEMA);
  }

  private cached?: Record<"profile" | "balance" | "order" | "forget" | "transfer", Database.Statement>;

  private upserts() {
    this.cached ??= {
      profile: this.db.prepare("INSERT OR REPLACE INTO profiles (id, customer_id, nickname, type) VALUES (?, ?, ?, ?)"),
      balance: this.db.prepare(
        "INSERT OR REPLACE INTO balances (profile_id, asset, available, trading) VALUES (?, ?, ?, ?)",
      ),
      order: this.db.prepare("INSERT OR REPLACE INTO orders (id, seq, status, data) VALUES (?, ?, ?, ?)"),
      forget: this.db.prepare("DELETE FROM orders WHERE id = ?"),
      transfer: this.db.prepare("INSERT OR REPLACE INTO transfers (id, created_at, data) VALUES (?, ?, ?)"),
    };
    return this.cached;
  }

  /** True before the first profile is stored: the caller seeds the demo then. */
  get isEmpty(): boolean {
    return this.db.prepare("SELECT 1 FROM profiles LIMIT 1").get() === undefined;
  }

  meta(key: string): string | undefined {
    return (this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
      .run(key, value);
  }

  /** Writes one command's changes atomically. */
  persist(changes: Changes): void {
    const p = this.upserts();
    this.db.transaction(() => {
      for (const x of changes.profiles) p.profile.run(x.id, x.customerId, x.nickname, x.type);
      for (const b of changes.balances)
        p.balance.run(b.profileId, b.asset, b.available.toString(), b.trading.toString());
      for (const o of changes.orders) p.order.run(o.id, o.seq, o.status, toJson(o));
      for (const id of changes.forgottenOrders) p.forget.run(id);
      for (const t of changes.transfers) p.transfer.run(t.id, t.createdAt, toJson(t));
    })();
  }

  /** Rebuilds an exchange from what is stored; open orders go back in arrival order. */
  loadInto(exchange: Exchange): void {
    for (const p of this.db.prepare("SELECT id, customer_id, nickname, type FROM profiles").all() as {
      id: string;
      customer_id: string;
      nickname: string;
      type: Profile["type"];
    }[]) {
      exchange.addProfile({ id: p.id, customerId: p.customer_id, nickname: p.nickname, type: p.type });
    }
    for (const b of this.db.prepare("SELECT profile_id, asset, available, trading FROM balances").all() as {
      profile_id: string;
      asset: string;
      available: string;
      trading: string;
    }[]) {
      exchange.ledger.load(b.profile_id, b.asset, BigInt(b.available), BigInt(b.trading));
    }
    for (const row of this.db.prepare("SELECT data FROM orders ORDER BY seq").all() as { data: string }[]) {
      exchange.restoreOrder(orderFromJson(row.data));
    }
    for (const row of this.db.prepare("SELECT data FROM transfers ORDER BY created_at").all() as { data: string }[]) {
      exchange.restoreTransfer(JSON.parse(row.data) as EngineTransfer);
    }
    exchange.markClean();
  }

  close(): void {
    this.db.close();
  }
}
