import { formatAmount } from "@/lib/client/format";

/** What a transfer request names; the form's request and a held approval's alike. */
export interface TransferWords {
  amount: string;
  asset: string;
  from_profile_id: string;
  to_profile_id: string;
}

/** The transfer in the sentence its review step confirms: "Move 1,234.56 USD from Treasury to Settlement." */
export const describeTransfer = (r: TransferWords, nickname: (profileId: string) => string): string =>
  `Move ${formatAmount(r.amount)} ${r.asset} from ${nickname(r.from_profile_id)} to ${nickname(r.to_profile_id)}.`;
