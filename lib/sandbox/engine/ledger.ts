/** Balances per profile and asset: `available` for new debits, `trading` held by open orders. */
export interface Balance {
  available: bigint;
  trading: bigint;
}

/** A balance as it stands after a change, for the store. */
export interface ChangedBalance extends Balance {
  profileId: string;
  asset: string;
}

export class InsufficientFunds extends Error {
  constructor(
    readonly profileId: string,
    readonly asset: string,
    readonly available: bigint,
    readonly needed: bigint,
  ) {
    super(`insufficient ${asset} funds in profile ${profileId}`);
  }
}

/**
 * Every balance move goes through here, and none can make a balance negative: a move
 * that would is a bug, and throws before changing anything.
 */
export class Ledger {
  private balances = new Map<string, Map<string, Balance>>();
  /** The balances changed since the last drain, for the store, keyed "profile\u0000asset". */
  private readonly changed = new Map<string, { profileId: string; asset: string }>();

  balance(profileId: string, asset: string): Balance {
    let assets = this.balances.get(profileId);
    if (!assets) {
      assets = new Map();
      this.balances.set(profileId, assets);
    }
    let b = assets.get(asset);
    if (!b) {
      b = { available: 0n, trading: 0n };
      assets.set(asset, b);
    }
    return b;
  }

  /** A profile's balances, asset by asset (a copy). */
  balancesOf(profileId: string): { asset: string; available: bigint; trading: bigint }[] {
    return [...(this.balances.get(profileId) ?? new Map<string, Balance>())].map(([asset, b]) => ({ asset, ...b }));
  }

  /** Every balance, for the conservation check and the store. */
  *all(): Generator<{ profileId: string; asset: string; balance: Balance }> {
    for (const [profileId, assets] of this.balances) {
      for (const [asset, balance] of assets) yield { profileId, asset, balance };
    }
  }

  private touch(profileId: string, asset: string): void {
    this.changed.set(`${profileId}\u0000${asset}`, { profileId, asset });
  }

  /** The balances changed since the last call, as they stand now. */
  drainChanged(): ChangedBalance[] {
    const balances = [...this.changed.values()].map(({ profileId, asset }) => {
      const { available, trading } = this.balance(profileId, asset);
      return { profileId, asset, available, trading };
    });
    this.changed.clear();
    return balances;
  }

  /** Sets a balance outright: loading from the store only. */
  load(profileId: string, asset: string, available: bigint, trading: bigint): void {
    Object.assign(this.balance(profileId, asset), { available, trading });
  }

  credit(profileId: string, asset: string, amount: bigint): void {
    this.balance(profileId, asset).available += amount;
    this.touch(profileId, asset);
  }

  debit(profileId: string, asset: string, amount: bigint): void {
    const b = this.balance(profileId, asset);
    if (b.available < amount) throw new InsufficientFunds(profileId, asset, b.available, amount);
    b.available -= amount;
    this.touch(profileId, asset);
  }

  /** Moves `amount` from available to trading for an order. */
  hold(profileId: string, asset: string, amount: bigint): void {
    const b = this.balance(profileId, asset);
    if (b.available < amount) throw new InsufficientFunds(profileId, asset, b.available, amount);
    b.available -= amount;
    b.trading += amount;
    this.touch(profileId, asset);
  }

  /** Returns what an order still holds to available. */
  release(profileId: string, asset: string, amount: bigint): void {
    const b = this.balance(profileId, asset);
    if (b.trading < amount) throw new Error(`release of ${amount} exceeds ${asset} trading balance of ${profileId}`);
    b.trading -= amount;
    b.available += amount;
    this.touch(profileId, asset);
  }

  /** Pays out of an order's hold (a fill). */
  spendHeld(profileId: string, asset: string, amount: bigint): void {
    const b = this.balance(profileId, asset);
    if (b.trading < amount) throw new Error(`spend of ${amount} exceeds ${asset} trading balance of ${profileId}`);
    b.trading -= amount;
    this.touch(profileId, asset);
  }

  /** Sum of available + trading of one asset over every profile. */
  total(asset: string): bigint {
    let sum = 0n;
    for (const { asset: a, balance } of this.all()) if (a === asset) sum += balance.available + balance.trading;
    return sum;
  }
}
