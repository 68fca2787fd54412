/**
 * The records a customer's ref_ids name. A ref_id is unique per customer, not across
 * customers, so it is keyed by the pair; the records themselves stay in their own map.
 */
export class RefIds<T> {
  private readonly ids = new Map<string, string>();

  constructor(private readonly records: ReadonlyMap<string, T>) {}

  /** The record the ref_id names, while the engine still keeps it. */
  find(customerId: string, refId: string): T | undefined {
    return this.records.get(this.ids.get(refKey(customerId, refId)) ?? "");
  }

  bind(customerId: string, refId: string, recordId: string): void {
    this.ids.set(refKey(customerId, refId), recordId);
  }
}

const refKey = (customerId: string, refId: string) => `${customerId}\u0000${refId}`;
