import type { Wants } from "./events";

/** How long another instance's interest counts without being sent again. */
export const INTEREST_TTL_MS = 5_000;

export interface Watched {
  streams: number;
  profiles: Set<string>;
  markets: Set<string>;
}

interface Remote {
  streams: number;
  profiles: string[];
  markets: string[];
  people: Record<string, number>;
  until: number;
}

/**
 * What the deployment's open streams watch: this instance's own, counted per stream, and the
 * other instances', as they last announced them on the bus (forgotten after INTEREST_TTL_MS).
 * Each profile and market is read once however many streams name it: `watched` is their union.
 */
export class Interests {
  private local = new Map<Wants, string>();
  private remote = new Map<string, Remote>();

  constructor(private now: () => number = Date.now) {}

  /** A stream of `person` opens; the function it answers is called when it closes. */
  add(wants: Wants, person = ""): () => void {
    const key = { ...wants };
    this.local.set(key, person);
    return () => this.local.delete(key);
  }

  /** This instance's share, as it is announced to the others. */
  own(): { streams: number; profiles: string[]; markets: string[]; people: Record<string, number> } {
    const w = this.union([...this.local.keys()]);
    const people: Record<string, number> = {};
    for (const person of this.local.values()) if (person) people[person] = (people[person] ?? 0) + 1;
    return { streams: this.local.size, profiles: [...w.profiles].sort(), markets: [...w.markets].sort(), people };
  }

  heard(instance: string, streams: number, profiles: string[], markets: string[], people = {}): void {
    if (streams === 0) this.remote.delete(instance);
    else this.remote.set(instance, { streams, profiles, markets, people, until: this.now() + INTEREST_TTL_MS });
  }

  /** The streams `person` has open across the deployment (the others' as last announced). */
  streamsOf(person: string): number {
    let n = 0;
    for (const p of this.local.values()) if (p === person) n++;
    const now = this.now();
    for (const r of this.remote.values()) if (r.until >= now) n += r.people[person] ?? 0;
    return n;
  }

  /** Everything watched anywhere in the deployment right now. */
  watched(): Watched {
    const now = this.now();
    for (const [id, r] of this.remote) if (r.until < now) this.remote.delete(id);
    const all = [...this.local.keys(), ...this.remote.values()];
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
