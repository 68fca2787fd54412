import { MARKETS, MARKET_DETAILS, type CreateInternalTransferRequest } from "@/lib/spec";
import { formatTrimmed, parseAmount } from "./amounts";
import type { Ledger } from "./ledger";
import { problems, withFunds } from "./problems";
import { toTransferRecord } from "./records";
import { RefIds } from "./ref-ids";
import type { EngineTransfer } from "./types";

export interface TransfersOptions {
  now: () => number;
  newId: () => string;
  /** Delay before an internal transfer's legs become COMPLETED. */
  settleMillis: number;
}

/** Who makes a transfer, and when. */
interface Origin {
  customerId: string;
  now: number;
  newId: () => string;
}

/**
 * Deposits and internal transfers: their records, their ref_ids and their settling. The
 * caller has already checked that the profiles are the customer's.
 */
export class Transfers {
  readonly records = new Map<string, EngineTransfer>();
  private readonly refs = new RefIds(this.records);
  private readonly pending = new Set<EngineTransfer>();

  constructor(
    private readonly ledger: Ledger,
    /** Where a changed record goes for the store. */
    private readonly changed: Set<EngineTransfer>,
    private readonly options: TransfersOptions,
  ) {}

  /** A sandbox deposit: credits the profile at once and records a COMPLETED deposit transfer. */
  deposit(customerId: string, profileId: string, asset: string, amount: string): EngineTransfer {
    const units = parseAmount(amount);
    this.ledger.credit(profileId, asset, units);
    const transfer = depositRecord(this.originOf(customerId), profileId, asset, units);
    this.save(transfer);
    return transfer;
  }

  /**
   * Moves the amount at once (no money is ever in limbo) and records a DEBIT and a CREDIT
   * leg sharing a group_id; both stay PENDING until `settleDue` passes their settle time.
   */
  createInternal(customerId: string, request: CreateInternalTransferRequest): EngineTransfer {
    const { from_profile_id: from, to_profile_id: to, asset, ref_id: refId } = request;
    const existing = refId ? this.refs.find(customerId, refId) : undefined;
    if (existing) {
      throw problems.alreadyExists("Transfer with ref_id already exists", toTransferRecord(existing), "Already exists");
    }
    const units = parseAmount(request.amount);
    withFunds(() => this.ledger.debit(from, asset, units));
    this.ledger.credit(to, asset, units);

    const origin = this.originOf(customerId);
    const [debit, credit] = internalTransferLegs(origin, request, units, origin.now + this.options.settleMillis);
    for (const t of [debit, credit]) this.save(t);
    if (refId) this.refs.bind(customerId, refId, debit.id);
    return debit;
  }

  /** Completes the pending legs whose settle time has come. */
  settleDue(now: number): void {
    for (const t of [...this.pending]) {
      if (t.settleAt === null || t.settleAt > now) continue;
      t.status = "COMPLETED";
      t.updatedAt = now;
      this.pending.delete(t);
      this.changed.add(t);
    }
  }

  /** Puts a stored record back. */
  restore(t: EngineTransfer): void {
    this.records.set(t.id, t);
    if (t.status === "PENDING") this.pending.add(t);
    if (t.refId && t.direction === "DEBIT") this.refs.bind(t.customerId, t.refId, t.id);
  }

  private save(t: EngineTransfer): void {
    this.records.set(t.id, t);
    if (t.status === "PENDING") this.pending.add(t);
    this.changed.add(t);
  }

  private originOf(customerId: string): Origin {
    return { customerId, now: this.options.now(), newId: this.options.newId };
  }
}

/** A sandbox deposit's record: COMPLETED at once; a wire for a market's quote currency, else crypto. */
function depositRecord(origin: Origin, profileId: string, asset: string, units: bigint): EngineTransfer {
  const fiat = MARKETS.some((m) => MARKET_DETAILS[m].quote_asset === asset);
  return {
    id: origin.newId(),
    customerId: origin.customerId,
    profileId,
    amount: formatTrimmed(units),
    asset,
    direction: "CREDIT",
    type: fiat ? "WIRE_DEPOSIT" : "CRYPTO_DEPOSIT",
    status: "COMPLETED",
    createdAt: origin.now,
    updatedAt: origin.now,
    settleAt: null,
  };
}

/** An internal transfer's two legs, the DEBIT carrying the ref_id, sharing a group_id. */
function internalTransferLegs(
  origin: Origin,
  request: CreateInternalTransferRequest,
  units: bigint,
  settleAt: number,
): [debit: EngineTransfer, credit: EngineTransfer] {
  const groupId = origin.newId();
  const leg = (profileId: string, direction: "DEBIT" | "CREDIT"): EngineTransfer => ({
    id: origin.newId(),
    customerId: origin.customerId,
    profileId,
    amount: formatTrimmed(units),
    asset: request.asset,
    direction,
    type: direction === "DEBIT" ? "INTERNAL_TRANSFER_DEBIT" : "INTERNAL_TRANSFER_CREDIT",
    status: "PENDING",
    createdAt: origin.now,
    updatedAt: origin.now,
    settleAt,
    groupId,
  });
  const debit: EngineTransfer = {
    ...leg(request.from_profile_id, "DEBIT"),
    refId: request.ref_id,
    metadata: request.metadata,
    identityId: request.from_identity_id,
    accountId: request.from_account_id,
  };
  const credit: EngineTransfer = {
    ...leg(request.to_profile_id, "CREDIT"),
    metadata: request.recipient_metadata,
    identityId: request.to_identity_id,
    accountId: request.to_account_id,
  };
  return [debit, credit];
}
