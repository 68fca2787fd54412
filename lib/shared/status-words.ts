import type { TransferType } from "@/lib/spec/enums";

/**
 * The service's codes in the words a desk uses, for filters and results: "PENDING_SUBMISSION"
 * reads "Pending submission", "SEN_DEPOSIT" reads "SEN deposit". The exact codes stay on the
 * status badges, in CSV exports and behind each table's "Show technical columns".
 */

/** A code as a sentence-case phrase: "PENDING_SUBMISSION" → "Pending submission", "SELL" → "Sell". */
export const statusWords = (code: string): string =>
  code
    .replace(/_/g, " ")
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());

/** Each transfer type; the payment networks keep their own names (SEN, Signet, CBIT, CUBIX, RTP). */
export const TRANSFER_TYPE_WORDS: Record<TransferType, string> = {
  INTERNAL_TRANSFER_DEBIT: "Internal transfer out",
  INTERNAL_TRANSFER_CREDIT: "Internal transfer in",
  CRYPTO_DEPOSIT: "Crypto deposit",
  CRYPTO_WITHDRAWAL: "Crypto withdrawal",
  WIRE_DEPOSIT: "Wire deposit",
  WIRE_WITHDRAWAL: "Wire withdrawal",
  SEN_DEPOSIT: "SEN deposit",
  SEN_WITHDRAWAL: "SEN withdrawal",
  BANK_DEPOSIT: "Bank deposit",
  BANK_WITHDRAWAL: "Bank withdrawal",
  PLATFORM_TRANSFER_DEBIT: "Platform transfer out",
  PLATFORM_TRANSFER_CREDIT: "Platform transfer in",
  SIGNET_DEPOSIT: "Signet deposit",
  SIGNET_WITHDRAWAL: "Signet withdrawal",
  CBIT_WITHDRAWAL: "CBIT withdrawal",
  CBIT_DEPOSIT: "CBIT deposit",
  CUBIX_DEPOSIT: "CUBIX deposit",
  CUBIX_WITHDRAWAL: "CUBIX withdrawal",
  RTP_DEPOSIT: "RTP deposit",
};

/** A transfer type in words; a type the spec does not name, as a phrase of its code. */
export const transferTypeWords = (type: string): string =>
  TRANSFER_TYPE_WORDS[type as TransferType] ?? statusWords(type);
