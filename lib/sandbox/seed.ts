import { createHash } from "node:crypto";
import { ASSETS } from "@/lib/spec";
import type { Exchange } from "./engine/exchange";
import type { Profile } from "./engine/types";

/**
 * The sandbox's starting world: the demo customer's treasury profiles and the two house
 * customers (a market maker and a flow trader) that keep every market alive. Ids are
 * name-based UUIDs, so they are the same on every machine and across restarts.
 */

/** Namespace of the sandbox's name-based UUIDs (itself a fixed, random v4 UUID). */
const NAMESPACE = "6f1c2b0e-4a57-4d2e-9c3b-8e5d7a1f0b24";

/** An RFC 9562 version 5 UUID (SHA-1, name-based) of `name` in the sandbox's namespace. */
export function sandboxUuid(name: string): string {
  const hash = createHash("sha1")
    .update(Buffer.from(NAMESPACE.replace(/-/g, ""), "hex"))
    .update(name, "utf8")
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const profileId = (name: string): string => sandboxUuid(`profile:${name}`);
export const customerId = (name: string): string => sandboxUuid(`customer:${name}`);

/** The customer the sandbox's default OAuth client (`dashboard`) acts for. */
export const DEMO_CUSTOMER_ID = customerId("demo");
export const MARKET_MAKER_CUSTOMER_ID = customerId("market-maker");
export const FLOW_TRADER_CUSTOMER_ID = customerId("flow-trader");
/** Separate customers, so self-match prevention never stops the demo trading against them. */
export const HOUSE_CUSTOMER_IDS: ReadonlySet<string> = new Set([MARKET_MAKER_CUSTOMER_ID, FLOW_TRADER_CUSTOMER_ID]);

export const MARKET_MAKER_PROFILE_ID = profileId("market-maker");
export const FLOW_TRADER_PROFILE_ID = profileId("flow-trader");

export interface SeedProfile {
  profile: Profile;
  /** Opening deposits, asset -> decimal amount. */
  deposits: Readonly<Record<string, string>>;
}

const demo = (name: string, nickname: string, type: Profile["type"], deposits: Record<string, string>) => ({
  profile: { id: profileId(name), customerId: DEMO_CUSTOMER_ID, nickname, type },
  deposits,
});

/** The demo customer's profiles, sized like a mid-sized treasury. */
export const DEMO_PROFILES: readonly SeedProfile[] = [
  demo("treasury", "Treasury", "DEFAULT", {
    USD: "25000000",
    EUR: "8000000",
    SGD: "5000000",
    BTC: "350",
    ETH: "4200",
    USDP: "2000000",
    GOLD: "400",
    LINK: "50000",
  }),
  demo("trading", "Trading", "NORMAL", {
    USD: "5000000",
    EUR: "1500000",
    SGD: "1000000",
    BTC: "40",
    ETH: "600",
    LTC: "2500",
    BCH: "800",
    LINK: "20000",
    MATIC: "1500000",
    AAVE: "3000",
    UNI: "60000",
  }),
  demo("settlement", "Settlement", "NORMAL", {
    USD: "2500000",
    EUR: "750000",
    SGD: "400000",
    BTC: "5",
    ETH: "50",
    USDP: "500000",
  }),
  demo("operations-reserve", "Operations reserve", "NORMAL", {
    USD: "1000000",
    EUR: "250000",
    SGD: "250000",
    BTC: "2",
    ETH: "20",
  }),
];

/**
 * House depth per asset: roughly 5 billion USD worth each, so the maker can quote for
 * months of random flow without running dry. Every asset of every market is listed.
 */
const HOUSE_DEPTH: Readonly<Record<string, string>> = {
  USD: "5000000000",
  EUR: "5000000000",
  SGD: "7000000000",
  BTC: "75000",
  ETH: "1500000",
  GOLD: "2000000",
  BCH: "15000000",
  LTC: "60000000",
  USDP: "5000000000",
  LINK: "300000000",
  MATIC: "7000000000",
  AAVE: "50000000",
  UNI: "600000000",
};

const house = (name: string, nickname: string, customer: string): SeedProfile => ({
  profile: { id: profileId(name), customerId: customer, nickname, type: "DEFAULT" },
  deposits: Object.fromEntries(ASSETS.map((asset) => [asset, HOUSE_DEPTH[asset] ?? "1000000000"])),
});

export const HOUSE_PROFILES: readonly SeedProfile[] = [
  house("market-maker", "Market maker", MARKET_MAKER_CUSTOMER_ID),
  house("flow-trader", "Flow trader", FLOW_TRADER_CUSTOMER_ID),
];

export const SEED_PROFILES: readonly SeedProfile[] = [...DEMO_PROFILES, ...HOUSE_PROFILES];

/**
 * Adds every seed profile and funds it through `deposit`, so the opening balances are
 * recorded as deposit transfers and each asset's total equals its deposits.
 * Call it on a fresh store only.
 */
export function seedExchange(exchange: Exchange): void {
  for (const { profile, deposits } of SEED_PROFILES) {
    exchange.addProfile({ ...profile });
    for (const [asset, amount] of Object.entries(deposits)) {
      exchange.deposit(profile.customerId, profile.id, asset, amount);
    }
  }
}
