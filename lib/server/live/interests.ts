import type { Wants } from "./events";

/** How long another instance's interest counts without being sent again. */
export const INTEREST_TTL_MS = 5_000;

export interface Watched {
  streams: number;
  profiles: Set<string>;
  markets: Set<string>;
}

/**
 * What the deployment's open streams watch: this instance's own, counted per stream, and the
 * other instances', as they last announced them on the bus (forgotten after INTEREST_TTL_MS).
 */
export class Interests {
  private local = new Set<Wants>();
  private remote = new Map<string, { streams: number; profiles: string[]; markets: string[]; until: number }>();

  constructor(private now: () => number = Date.now) {}

  /** A stream opens; the function it answers is called when it closes. */
  add(wants: Wants): () => void {
    this.local.add(wants);
    return () => this.local.delete(wants);
  }

  /** This instance's share, as it is announced to the others. */
  own(): { streams: number; profiles: string[]; markets: string[] } {
    const w = this.union([...this.local]);
    return { streams: this.local.size, profiles: [...w.profiles].sort(), markets: [...w.markets].sort() };
  }

  heard(instance: string, streams: number, profiles: string[], markets: string[]): void {
    if (streams === 0) this.remote.delete(instance);
    else this.remote.set(instance, { streams, profiles, markets, until: this.now() + INTEREST_TTL_MS });
  }

  /** Everything watched anywhere in the deployment right now. */
  watched(): Watched {
    const now = this.now();
    for (const [id, r] of this.remote) if (r.until < now) this.remote.delete(id);
    const all = [...this.local, ...this.remote.values()];
    const w = this.union(all);
    let streams = this.local.size;
    for (const r of this.remote.values()) streams += r.streams;
    return { streams, ...w };
  }

  private union(list: readonly Wants[]) {
    const profiles = new Set<string>();
    const markets = new Set<string>();
    for (const w of list) {
      for (const p of w.profiles) profiles.add(p);
      for (const m of w.markets) markets.add(m);
    }
    return { profiles, markets };
  }
}
