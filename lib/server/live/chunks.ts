/**
 * NOTIFY's payload is at most 8000 bytes. A message that fits goes whole ("1|" + text); a
 * larger one (an order with big metadata) goes in parts that the receivers put back together.
 */

export const MAX_NOTIFY_BYTES = 7_900;
/** UTF-16 code units per part: at most 3 bytes each in UTF-8, so a part and its header fit. */
const PART_UNITS = 2_500;
/** Parts of a message still incomplete after this long are dropped (their sender died midway). */
const PARTIAL_TTL_MS = 30_000;

/** The payloads that carry `text`; `id` tells one message's parts from another's. */
export function toPayloads(text: string, id: string): string[] {
  if (Buffer.byteLength(text) <= MAX_NOTIFY_BYTES - 2) return [`1|${text}`];
  const parts: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + PART_UNITS, text.length);
    // Never split a surrogate pair: each half alone is not valid text.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts.map((part, i) => `c|${id}|${i}|${parts.length}|${part}`);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Puts parts back together: `add` answers the whole text once its last part arrives. */
export class Reassembler {
  private partial = new Map<string, { parts: (string | undefined)[]; got: number; at: number }>();

  constructor(private now: () => number = Date.now) {}

  add(payload: string): string | undefined {
    if (payload.startsWith("1|")) return payload.slice(2);
    const match = /^c\|([^|]+)\|(\d+)\|(\d+)\|/.exec(payload);
    if (!match) return undefined;
    const [head, id, index, count] = [match[0], match[1]!, Number(match[2]), Number(match[3])];
    this.dropStale();
    let entry = this.partial.get(id);
    if (!entry) {
      entry = { parts: new Array<string | undefined>(count), got: 0, at: this.now() };
      this.partial.set(id, entry);
    }
    if (index >= count || entry.parts[index] !== undefined) return undefined;
    entry.parts[index] = payload.slice(head.length);
    if (++entry.got < count) return undefined;
    this.partial.delete(id);
    return entry.parts.join("");
  }

  get pending(): number {
    return this.partial.size;
  }

  private dropStale() {
    const limit = this.now() - PARTIAL_TTL_MS;
    for (const [id, entry] of this.partial) if (entry.at < limit) this.partial.delete(id);
  }
}
