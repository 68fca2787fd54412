/**
 * Turns what the watcher read into what changed. Records are compared as the service sent them
 * (their JSON), so a new status, fill or leg is a change, and an unchanged record is not.
 */

interface Keyed {
  id: string;
  status: string;
}

/** Orders or transfers: the newest page each time, plus the ones still open that fell off it. */
export class RecordTracker<T extends Keyed> {
  private seen = new Map<string, string>();
  /** Non-final records, kept until they are final, so they are followed off the newest page. */
  private open = new Map<string, T>();
  private started = false;

  constructor(private isFinal: (record: T) => boolean) {}

  /**
   * The newest page as read now: answers the records that are new or changed since the last
   * look. The first look only learns what is there (a stream opening is not a change).
   */
  page(records: readonly T[]): T[] {
    const changed = records.filter((r) => this.note(r));
    const first = !this.started;
    this.started = true;
    // Forget what is neither on the page nor open, so memory follows the page, not history.
    const keep = new Set(records.map((r) => r.id));
    for (const id of this.seen.keys()) if (!keep.has(id) && !this.open.has(id)) this.seen.delete(id);
    return first ? [] : changed;
  }

  /** One record, read or pushed: true when it is new or differs from what was last seen. */
  note(record: T): boolean {
    const text = JSON.stringify(record);
    const before = this.seen.get(record.id);
    this.seen.set(record.id, text);
    // Re-added at the end: the open records read one by one take turns (openOffPage, oldest read first).
    this.open.delete(record.id);
    if (!this.isFinal(record)) this.open.set(record.id, record);
    return before !== text;
  }

  /** Open records not on the page just read, the longest unread first: the watcher reads these one by one. */
  openOffPage(page: readonly T[]): T[] {
    const on = new Set(page.map((r) => r.id));
    return [...this.open.values()].filter((r) => !on.has(r.id));
  }

  /** A record the service no longer has (404): stop following it. */
  forget(id: string): void {
    this.open.delete(id);
    this.seen.delete(id);
  }
}

/** Balances by profile, tickers by market: a value per key, a change when its JSON differs. */
export class ValueTracker {
  private last = new Map<string, string>();

  /** True when `value` differs from the last one seen for `key` (or none was). */
  changed(key: string, value: unknown): boolean {
    const text = JSON.stringify(value);
    if (this.last.get(key) === text) return false;
    this.last.set(key, text);
    return true;
  }

  /** Keeps only the keys still watched. */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.last.keys()) if (!keys.has(key)) this.last.delete(key);
  }
}
