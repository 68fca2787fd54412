import type { ChangedBalance, Ledger } from "./ledger";
import type { EngineOrder, EngineTransfer, Profile } from "./types";

/** What changed since the last drain: the store persists exactly this, in one transaction. */
export interface Changes {
  profiles: Profile[];
  orders: EngineOrder[];
  forgottenOrders: string[];
  transfers: EngineTransfer[];
  balances: ChangedBalance[];
}

/** The records changed since the last drain, gathered as the engine makes them. */
export class ChangeLog {
  readonly profiles = new Set<Profile>();
  readonly orders = new Set<EngineOrder>();
  readonly transfers = new Set<EngineTransfer>();
  /** Ids of closed orders no longer kept (the house's), for the store to delete. */
  readonly forgotten = new Set<string>();

  /** Hands over everything changed, the ledger's balances included, and starts afresh. */
  drain(ledger: Ledger): Changes {
    const changes: Changes = {
      profiles: [...this.profiles],
      orders: [...this.orders],
      forgottenOrders: [...this.forgotten],
      transfers: [...this.transfers],
      balances: ledger.drainChanged(),
    };
    this.profiles.clear();
    this.orders.clear();
    this.forgotten.clear();
    this.transfers.clear();
    return changes;
  }
}
