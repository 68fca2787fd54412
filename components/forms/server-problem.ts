import type { FieldValues, UseFormReturn } from "react-hook-form";
import { formatMoney } from "@/lib/shared/format";
import { namedProblem } from "@/lib/shared/named-profiles";
import type { Problem } from "@/lib/spec/problem";

/**
 * A 400 from the server names fields: show each rule on its own field too (`fieldOf`: the form's
 * name for a request field it shows under another, as the form's resolver has it).
 */
export function showFieldErrors<T extends FieldValues, O>(
  form: UseFormReturn<T, unknown, O>,
  problem: Problem,
  fieldOf: Readonly<Record<string, string>> = {},
): void {
  for (const e of (problem.meta?.errors as { field: string; message: string }[] | undefined) ?? []) {
    const named = e.field.split(".")[0]!;
    const field = fieldOf[named] ?? named;
    if (field in form.getValues()) form.setError(field as never, { type: "server", message: e.message });
  }
}

/** A 400 naming fields: each message is on its field (showFieldErrors), none needs saying again above the button. */
export const hasFieldErrors = (p: Problem): boolean =>
  ((p.meta?.errors as unknown[] | undefined) ?? []).length > 0 && p.status === 400;

/** A retry can help after a timeout (504), another 5xx or a lost connection (0); a 4xx is an answer. */
export const canRetry = (p: Problem): boolean => p.status === 0 || p.status >= 500;

interface InsufficientFunds {
  profile_id: string;
  asset: string;
  available: string;
  needed: string;
}

const insufficientFundsOf = (p: Problem): InsufficientFunds | undefined => {
  const meta = p.meta as Partial<InsufficientFunds> | undefined;
  const named = /insufficient-funds$/.test(p.type) || p.title === "Insufficient Funds";
  return named && meta?.profile_id && meta.asset && meta.available && meta.needed
    ? (meta as InsufficientFunds)
    : undefined;
};

/**
 * The service's problem in the desk's words: profiles by nickname instead of id, amounts
 * formatted. "insufficient USD funds in profile 7f3c…: 5000 needed, 350 available" becomes
 * "Trading has 350 USD available; this order needs 5,000 USD."
 */
export function inDeskWords(
  p: Problem,
  what: "order" | "transfer" | "batch",
  profiles: readonly { id: string; nickname: string }[],
): Problem {
  const nickname = (id: string) => profiles.find((x) => x.id === id)?.nickname ?? `profile ${id}`;
  const funds = insufficientFundsOf(p);
  if (funds) {
    const has = formatMoney(funds.available, funds.asset);
    const detail = `${nickname(funds.profile_id)} has ${has} available; this ${what} needs ${formatMoney(funds.needed, funds.asset)}.`;
    return { ...p, detail };
  }
  return namedProblem(p, (id) => profiles.find((x) => x.id === id)?.nickname ?? id);
}
